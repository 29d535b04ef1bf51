/**
 * A command is ReadOnly only when every word is literal or an expansion tole proves inert. These
 * are the words that are not: text bash evaluates (arithmetic, indirection, prompts), words made
 * from a command's output, and paths into another process's `/proc` entry.
 */
import type { Word } from '../shell/syntax';
import type { Ctx } from './context';
import { type Finding, opaqueWrite, write } from './findings';

export function wordFindings(w: Word, ctx: Ctx): Finding[] {
  const findings: Finding[] = [];
  if (w.evaluates) {
    findings.push(
      opaqueWrite(
        `\`${w.text}\` makes bash evaluate text as arithmetic, a name or a prompt, and a value like \`a[$(cmd)]\` runs cmd`,
      ),
    );
  }
  if (w.substitutions.length > 0) {
    findings.push(
      write(
        w.processSubstitution
          ? `\`${w.text}\` connects a command through a pipe tole cannot follow`
          : `\`${w.text}\` builds words from a command's output, which tole cannot see before it runs`,
      ),
    );
  }
  if (reachesOtherProcess(w, ctx)) {
    findings.push(write(`\`${w.text}\` may reach another process under /proc (its environment, its files, its root)`));
  }
  return findings;
}

/** What `/proc/self/X` may name without reaching outside the command itself. */
const SELF_ESCAPES = new Set(['root', 'cwd', 'task', 'map_files', 'fd', 'fdinfo']);

/**
 * `/proc/<pid>/…` of anything but the command itself: `/proc/$PPID/environ` holds tole's own
 * environment. Also `/proc/self/root/…` (the whole filesystem again), globs at the top of the
 * tree (`/p*`) and relative paths that may climb into `/proc` (`../../proc`, after a `cd`).
 */
function reachesOtherProcess(w: Word, ctx: Ctx): boolean {
  const candidates = [w.text, ...w.text.split(/[=:,@]/).slice(1)];
  return candidates.some((text) => pathReachesOtherProcess(text, w.glob, ctx.state.cwdUnknown));
}

function pathReachesOtherProcess(text: string, glob: boolean, cwdUnknown: boolean): boolean {
  const parts = text.split('/');
  const absolute = text.startsWith('/');
  const climbs = parts.includes('..') || text.startsWith('~');
  if (glob && (climbs || (absolute && /[*?[]/.test(parts[1] ?? '')))) return true;
  if (!absolute) {
    const named = parts.some((p) => p === 'proc');
    return named && (climbs || cwdUnknown);
  }
  // Walked as written; `/proc/self/cwd/..` leaves through a link, so any `..` under /proc counts.
  const stack: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..' && stack[0] === 'proc' && stack.length > 1) return true;
    if (part === '..') stack.pop();
    else stack.push(part);
    if (stack[0] === 'proc' && stack.length >= 2 && procEntryEscapes(stack)) return true;
  }
  // `/proc` itself: a `cd` there makes `1/environ` reach pid 1.
  return stack.length === 1 && stack[0] === 'proc';
}

function procEntryEscapes(stack: readonly string[]): boolean {
  const entry = stack[1]!;
  if (entry === 'self' || entry === 'thread-self') return stack[2] !== undefined && SELF_ESCAPES.has(stack[2]);
  // A pid, or a name only known when it runs (`$PPID`); `/proc/cpuinfo` and the like are no process.
  return /^\d+$/.test(entry) || /[$`*?[]/.test(entry);
}
