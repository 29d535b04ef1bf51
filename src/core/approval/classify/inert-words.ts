/**
 * A command is ReadOnly only when every word is literal or an expansion tole proves inert. These
 * are the words that are not: text bash evaluates (arithmetic, indirection, prompts), words made
 * from a command's output, and paths into another process's `/proc` entry.
 */
import picomatch from 'picomatch';
import type { Word } from '../shell/syntax';
import type { Ctx } from './context';
import { type Finding, opaqueWrite, write } from './findings';
import { wordCandidates } from './known-values';

/**
 * `opens`: the word is where a command may read a path (its arguments, a redirection), so a value
 * only known when it runs may name another process's environment.
 */
export function wordFindings(w: Word, ctx: Ctx, opens = true): Finding[] {
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
  const candidates = opens ? wordCandidates(w, ctx.state.values, ctx.depth) : [w.text];
  if (candidates === undefined) {
    findings.push(
      write(
        `\`${w.text}\` holds a value only known when it runs, which may name another process's environment under /proc`,
      ),
    );
  } else if (reachesOtherProcess(w, ctx) || candidates.some((c) => c !== w.text && valueReaches(c, w, ctx))) {
    findings.push(write(`\`${w.text}\` may reach another process under /proc (its environment, its files, its root)`));
  }
  if (opens && [w.text, ...(candidates ?? [])].some((c) => namesDevice(c, w))) {
    findings.push(
      write(
        `\`${w.text}\` may name a device, and opening one can act (a watchdog reboots, a tape winds, a terminal's keys are taken)`,
      ),
    );
  }
  return findings;
}

/** Devices whose opening or reading does nothing but give or take bytes (`fd/N` too). */
const INERT_DEVICES = new Set(['null', 'zero', 'full', 'random', 'urandom', 'stdin', 'stdout', 'stderr', 'tty']);

/**
 * A path that may lead into /dev other than to an inert device: `/dev/watchdog`, `/dev/pts/0` (the
 * terminal tole reads its keys from), `/dev/*`, `/d?v/x`, `/dev` itself (a `cd` there makes every
 * later name a device), and `../../dev/x` climbing there. Also each `=`, `:`, `,` or `@` part.
 */
function namesDevice(text: string, w: Word): boolean {
  return [text, ...text.split(/[=:,@]/).slice(1)].some((t) => {
    const parts = t.split('/');
    if (!t.startsWith('/')) return parts.includes('..') && parts.some((p) => p === 'dev' || mayBe('dev', p, w));
    const stack: string[] = [];
    for (const part of parts) {
      if (part === '' || part === '.') continue;
      if (part === '..') stack.pop();
      else stack.push(part);
    }
    const top = stack[0];
    if (top === undefined || (top !== 'dev' && !mayBe('dev', top, w))) return false;
    const rest = stack.slice(1);
    const inert =
      (rest.length === 1 && (INERT_DEVICES.has(rest[0]!) || rest[0] === 'fd')) ||
      (rest.length === 2 && rest[0] === 'fd' && /^\d+$/.test(rest[1]!));
    return !inert;
  });
}

/** What `/proc/self/X` may name without reaching outside the command itself. */
const SELF_ESCAPES = new Set(['root', 'cwd', 'task', 'map_files', 'fd', 'fdinfo']);

/**
 * `/proc/<pid>/…` of anything but the command itself: `/proc/$PPID/environ` holds tole's own
 * environment. Also `/proc/self/root/…` (the whole filesystem again), globs at the top of the
 * tree (`/p*`, `/./pro?`, `/{proc,x}`, `/$x`), relative paths that may climb into `/proc`
 * (`../../proc`, `pro?` after a `cd`), and the root itself, which a recursive reader walks.
 */
function reachesOtherProcess(w: Word, ctx: Ctx): boolean {
  // An expansion may spell `proc` with the part it leaves out (`/${x:-proc}/1`, `/proc${x}/1`).
  if (w.expands && !w.processSubstitution && w.text.includes('proc')) return true;
  const candidates = [w.text, ...w.text.split(/[=:,@]/).slice(1)];
  return candidates.some((text) => pathReachesOtherProcess(text, w, ctx.state.cwdUnknown));
}

/**
 * A word with its known values put in (`$a$b` as `/proc/1/environ`): read as a glob, since an
 * unquoted value is one, and each piece bash may split it into on blanks.
 */
function valueReaches(text: string, w: Word, ctx: Ctx): boolean {
  const like: Word = { ...w, glob: true };
  const pieces = [text, ...text.split(/[ \t\n]+/).filter((p) => p !== '')];
  return pieces.some((piece) =>
    [piece, ...piece.split(/[=:,@]/).slice(1)].some((t) => pathReachesOtherProcess(t, like, ctx.state.cwdUnknown)),
  );
}

function pathReachesOtherProcess(text: string, w: Word, cwdUnknown: boolean): boolean {
  const parts = text.split('/');
  const absolute = text.startsWith('/');
  const climbs = parts.includes('..') || text.startsWith('~');
  if (w.glob && (climbs || (absolute && /[*?[]/.test(parts[1] ?? '')))) return true;
  if (!absolute) {
    const named = parts.some((p) => p === 'proc' || mayBeProc(p, w));
    // `.` or `..` after a `cd /`, or `../..` climbing there: a recursive reader walks `/proc` too.
    const last = parts.filter((p) => p !== '' && p !== '.').pop();
    const maybeRoot = last === undefined || last === '..';
    return (named || maybeRoot) && (climbs || cwdUnknown);
  }
  // Walked as written; `/proc/self/cwd/..` leaves through a link, so any `..` under /proc counts.
  const stack: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..' && stack[0] === 'proc' && stack.length > 1) return true;
    // The top part only known when it runs: `/./pro?`, `//{proc,x}`, `/$x` may each be `/proc`.
    if (part !== '..' && stack.length === 0 && mayBeProc(part, w)) return true;
    if (part === '..') stack.pop();
    else stack.push(part);
    if (stack[0] === 'proc' && stack.length >= 2 && procEntryEscapes(stack)) return true;
  }
  // `/proc` itself: a `cd` there makes `1/environ` reach pid 1. The root itself: `grep -r KEY /`
  // (or `rg`, `ls -R`) walks into `/proc/<pid>/environ`.
  return stack.length === 0 || (stack.length === 1 && stack[0] === 'proc');
}

function procEntryEscapes(stack: readonly string[]): boolean {
  const entry = stack[1]!;
  if (entry === 'self' || entry === 'thread-self') return stack[2] !== undefined && SELF_ESCAPES.has(stack[2]);
  // A pid, or a name only known when it runs (`$PPID`); `/proc/cpuinfo` and the like are no process.
  return /^\d+$/.test(entry) || /[$`*?[]/.test(entry);
}

/**
 * A path part bash may turn into `proc`: a glob matching it (picomatch reads bash's `*`, `?`,
 * `[…]` and extglobs), or a brace, a variable or a substitution, whose value is only known then.
 */
function mayBeProc(part: string, w: Word): boolean {
  return mayBe('proc', part, w);
}

/** Whether bash may turn the path part into `name` (a glob matching it, or an expansion). */
function mayBe(name: string, part: string, w: Word): boolean {
  if (w.expands && /[$`{}]/.test(part)) return true;
  if (!w.glob || !/[*?[(]/.test(part)) return false;
  try {
    return picomatch.isMatch(name, part, { dot: true, bash: true });
  } catch {
    return true;
  }
}
