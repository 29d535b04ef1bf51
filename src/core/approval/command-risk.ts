/**
 * The risk of a bash command line: the highest risk of any command it may run, anywhere in it
 * (lists, pipes, substitutions, `bash -c` strings, wrappers like `sudo` or `xargs`), with the
 * reason of the part that decided. What cannot be understood is Destructive.
 *
 * The classifier's parts are in classify/, one concern a file: script.ts walks a parsed line,
 * dispatch.ts sends each command to the file that knows it (wrappers, shells, find, git, sed and
 * awk, the rule tables via rules.ts, unknown.ts), and those walk again whatever line a command
 * runs (`bash -c`, `xargs`, `find -exec`), so the walk and the per-command files call each other:
 * through the context's `walk` (classify/context.ts), which this file fills, never by importing.
 */
import type { Ctx, Walk } from './classify/context';
import { classifyArgv } from './classify/dispatch';
import { decide } from './classify/findings';
import { classifyLine, classifyScript, classifySubstitutions } from './classify/script';
import type { RiskAssessment } from './risk';

export interface ClassifyOptions {
  /**
   * Whether a path, as written in the command (relative to the workspace), exists. Decides
   * whether `> f`, `mv a f` or `git checkout f` destroys something. Default: every path exists.
   */
  readonly exists?: (path: string) => boolean;
  /** Whether a path is a directory (`mv a dir` moves into it). Default: none is. */
  readonly isDirectory?: (path: string) => boolean;
  /**
   * Whether a path as written (relative to the workspace, or absolute; `glob`: a pattern bash
   * expands) may lead outside the workspace. Default, read from the text alone: any absolute path,
   * any that climbs above the workspace with `..`.
   */
  readonly leaves?: (path: string, glob: boolean) => boolean;
}

function leavesByText(text: string): boolean {
  if (text.startsWith('/')) return true;
  let depth = 0;
  for (const part of text.split('/')) {
    if (part === '..') depth -= 1;
    else if (part !== '' && part !== '.') depth += 1;
    if (depth < 0) return true;
  }
  return false;
}

/** The walk's entry points, handed to every classifier through its context. */
const WALK: Walk = {
  argv: classifyArgv,
  line: classifyLine,
  script: classifyScript,
  substitutions: classifySubstitutions,
};

/** Bound on the commands looked at for one line, whatever its shape. */
const MAX_CLASSIFY_STEPS = 5_000;

export function classifyCommand(line: string, opts: ClassifyOptions = {}): RiskAssessment {
  const ctx: Ctx = {
    exists: opts.exists ?? (() => true),
    isDirectory: opts.isDirectory ?? (() => false),
    leaves: opts.leaves ?? leavesByText,
    depth: 0,
    stdin: { kind: 'terminal' },
    elsewhere: false,
    state: { cwdUnknown: false, steps: MAX_CLASSIFY_STEPS, written: new Set() },
    walk: WALK,
  };
  return decide(classifyLine(line, ctx));
}
