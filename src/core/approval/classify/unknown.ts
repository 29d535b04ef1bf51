/** Unknown commands: Write, unless an argument shows a Destructive command they may run. */
import { COMMAND_RULES, DESTRUCTIVE_NAME_PREFIXES, SHELLS, UNKNOWN_COMMAND_REASON, WRAPPERS } from '../command-rules';
import { parseShell } from '../shell/parser';
import type { Word } from '../shell/syntax';
import { type Ctx, deeper } from './context';
import { type Finding, destructive, opaqueWrite, write } from './findings';
import { basename, isDynamic } from './words';

/** Bound on the arguments of one unknown command searched for an embedded command. */
const MAX_EMBEDDED_SCANS = 16;

/** Names after which an unknown command's arguments are checked as a command it may run. */
const MAY_RUN_DESTRUCTIVE = new Set<string>([
  ...Object.entries(COMMAND_RULES)
    .filter(([, rule]) => rule.risk === 'Destructive' || (rule.raise ?? []).some((p) => p.risk === 'Destructive'))
    .map(([name]) => name),
  ...Object.keys(WRAPPERS),
  ...SHELLS,
  'eval',
  'find',
  'git',
  'kill',
]);

/** The Destructive part of `text` read as a command line, if it parses and has one. */
function embeddedLine(text: string, ctx: Ctx): Finding | undefined {
  const parsed = parseShell(text, ctx.depth + 1);
  return parsed.ok ? ctx.walk.script(parsed.script, deeper(ctx)).find((f) => f.risk === 'Destructive') : undefined;
}

/** Unknown is Write; but `setsid rm -rf x` or `ssh host 'rm -rf /'` shows what it may run. */
export function classifyUnknown(name: string, words: readonly Word[], ctx: Ctx): Finding[] {
  const byPath = words[0]!.text.includes('/');
  const findings = [
    byPath
      ? opaqueWrite(`\`${words[0]!.text}\` runs a program from the workspace, whose code tole does not inspect`)
      : write(UNKNOWN_COMMAND_REASON(name)),
  ];
  const found = embeddedDestructive(name, words.slice(1), ctx);
  return found ? [...findings, found] : findings;
}

/** A Destructive command among `args`, as words (`kubectl exec p -- rm -rf x`) or as one string (`ssh h 'rm -rf /'`). */
export function embeddedDestructive(name: string, args: readonly Word[], ctx: Ctx): Finding | undefined {
  let scans = 0;
  for (let i = 0; i < args.length && scans < MAX_EMBEDDED_SCANS; i++) {
    const w = args[i]!;
    if (isDynamic(w)) continue;
    const embedded = basename(w.text).toLowerCase();
    let found: Finding | undefined;
    if (MAY_RUN_DESTRUCTIVE.has(embedded) || DESTRUCTIVE_NAME_PREFIXES.some((p) => embedded.startsWith(p.prefix))) {
      scans++;
      found = ctx.walk.argv(args.slice(i), deeper(ctx)).find((f) => f.risk === 'Destructive');
    } else if (!w.plain && /[\s;&|]/.test(w.text)) {
      scans++;
      // As written, after `KEY=` (`-o ProxyCommand=…`), after an editor's `:!` (`vim -c '!cmd'`).
      const candidates = [w.text, w.text.slice(w.text.indexOf('=') + 1), w.text.replace(/^[:!]+/, '')];
      found = candidates.map((text) => embeddedLine(text, ctx)).find((f) => f !== undefined);
    }
    if (found) return destructive(`\`${name}\` may run \`${w.text}\`: ${found.reason}`);
  }
  return undefined;
}
