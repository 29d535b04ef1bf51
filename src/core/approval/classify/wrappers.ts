/** Wrappers (`sudo`, `env`, `xargs`, `timeout` …): their options, then the command they run. */
import type { WrapperRule } from '../command-rules';
import { type Word, literalWord } from '../shell/syntax';
import { classifyCommandString, classifyJoined } from './command-strings';
import { type Ctx, deeper } from './context';
import { type Finding, destructive, optional, readOnly, write } from './findings';
import { classifyAssignment } from './variables';
import { includes, mayBeOption } from './words';
import { targetFinding } from './written-paths';

interface WrapperArgs {
  readonly command: Word[];
  readonly outputs: Word[];
  readonly strings: Word[];
  readonly assignments: { name: string; value: Word }[];
  noRun: boolean;
  viaShell: boolean;
  chdir: boolean;
  replace?: string;
}

export function classifyWrapped(name: string, spec: WrapperRule, args: readonly Word[], ctx: Ctx): Finding[] {
  const parsed = parseWrapperArgs(spec, args);
  if (typeof parsed === 'string') {
    return [
      destructive(
        `\`${name}\` is given \`${parsed}\`, an option tole does not know, so the command it runs cannot be found`,
      ),
    ];
  }
  const findings: Finding[] = spec.floor ? [{ risk: spec.floor.risk, reason: spec.floor.reason }] : [];
  for (const w of parsed.outputs)
    findings.push(...optional(targetFinding(`\`${name} -o ${w.text}\``, w, 'truncate', ctx)));
  for (const w of parsed.strings) findings.push(...classifyCommandString(w, ctx, name));
  for (const a of parsed.assignments) findings.push(...classifyAssignment(a.name, a.value, ctx));
  if (parsed.chdir) ctx.state.cwdUnknown = true;
  let command = parsed.command;
  if (command.length === 0 && spec.defaultCommand && !parsed.noRun) command = [literalWord(spec.defaultCommand)];
  if (parsed.noRun || command.length === 0) {
    const alone = parsed.noRun ? 'ReadOnly' : spec.aloneRisk;
    findings.push(
      alone === 'ReadOnly'
        ? readOnly(`\`${name}\` runs no command here`, name)
        : write(`\`${name}\` without a command`),
    );
    return findings;
  }
  if (spec.joinsArguments || parsed.viaShell) return [...findings, ...classifyJoined(name, command, ctx)];
  if (!spec.appendsArguments) return [...findings, ...ctx.walk.argv(command, deeper(ctx))];
  const marked =
    parsed.replace === undefined
      ? command
      : command.map((w) => (w.text.includes(parsed.replace!) ? { ...w, expands: true } : w));
  return [...findings, ...ctx.walk.argv([...marked, STDIN_ARGUMENTS], deeper(ctx, { kind: 'terminal' }))];
}

/** xargs appends arguments read from stdin: anything at all. */
const STDIN_ARGUMENTS: Word = { ...literalWord('<arguments read from stdin>'), plain: false, expands: true };

/** Options of a wrapper, up to the command it runs; a string is an option it does not know. */
function parseWrapperArgs(spec: WrapperRule, args: readonly Word[]): WrapperArgs | string {
  const out: WrapperArgs = {
    command: [],
    outputs: [],
    strings: [],
    assignments: [],
    noRun: false,
    viaShell: false,
    chdir: false,
  };
  let leading = 0;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (mayBeOption(w)) break;
    if (t === '--') {
      i++;
      break;
    }
    const assignment = spec.assignments ? /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(t) : null;
    if (assignment)
      out.assignments.push({ name: assignment[1]!, value: { ...w, text: t.slice(assignment[0].length) } });
    else if (t === '-' && spec.assignments) continue;
    else if (t.startsWith('--')) {
      const used = wrapperLongOption(spec, args, i, out);
      if (used < 0) return t;
      i += used;
    } else if (t.startsWith('-') && t.length > 1) {
      if (spec.numericOption && /^-\d+$/.test(t)) continue;
      const used = wrapperShortOptions(spec, args, i, out);
      if (used < 0) return t;
      i += used;
    } else if (leading < (spec.leadingArguments ?? 0)) leading++;
    else break;
  }
  out.command.push(...args.slice(i));
  return out;
}

/** Returns how many extra words the option used (its value), or -1 when it is unknown. */
function wrapperLongOption(spec: WrapperRule, args: readonly Word[], i: number, out: WrapperArgs): number {
  const w = args[i]!;
  const eq = w.text.indexOf('=');
  const name = eq < 0 ? w.text : w.text.slice(0, eq);
  if (includes(spec.noRunOptions ?? [], name)) out.noRun = true;
  if (includes(spec.shellOptions ?? [], name)) out.viaShell = true;
  if (includes(spec.longFlags ?? [], name) || includes(spec.noRunOptions ?? [], name)) return 0;
  if (!includes(spec.longValues ?? [], name)) return -1;
  const value = eq < 0 ? args[i + 1] : { ...w, text: w.text.slice(eq + 1) };
  if (value === undefined) return -1;
  recordWrapperValue(spec, name, value, out);
  return eq < 0 ? 1 : 0;
}

function wrapperShortOptions(spec: WrapperRule, args: readonly Word[], i: number, out: WrapperArgs): number {
  const t = args[i]!.text;
  for (let j = 1; j < t.length; j++) {
    const letter = t[j]!;
    const name = `-${letter}`;
    if (includes(spec.noRunOptions ?? [], name)) out.noRun = true;
    if (includes(spec.shellOptions ?? [], name)) out.viaShell = true;
    if ((spec.shortFlags ?? '').includes(letter) || includes(spec.noRunOptions ?? [], name)) continue;
    if ((spec.shortOptionalValues ?? '').includes(letter)) {
      recordWrapperValue(spec, name, { ...args[i]!, text: t.slice(j + 1) || '{}' }, out);
      return 0;
    }
    if (!(spec.shortValues ?? '').includes(letter)) return -1;
    const attached = t.slice(j + 1);
    const value = attached ? { ...args[i]!, text: attached } : args[i + 1];
    if (value === undefined) return -1;
    recordWrapperValue(spec, name, value, out);
    return attached ? 0 : 1;
  }
  return 0;
}

function recordWrapperValue(spec: WrapperRule, name: string, value: Word, out: WrapperArgs): void {
  if (includes(spec.outputOptions ?? [], name)) out.outputs.push(value);
  if (includes(spec.stringOptions ?? [], name)) out.strings.push(value);
  if (includes(spec.chdirOptions ?? [], name)) out.chdir = true;
  if (spec.appendsArguments && (name === '-I' || name === '-i' || name === '--replace')) out.replace = value.text;
}
