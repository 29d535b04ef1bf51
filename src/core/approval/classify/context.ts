/** What the classifier carries through a line: the workspace questions, stdin, nesting, shared state, the walk. */
import type { Script, Word } from '../shell/syntax';
import type { Finding } from './findings';
import type { LineValues } from './known-values';

export type Stdin =
  | { readonly kind: 'terminal' }
  | { readonly kind: 'pipe'; readonly download: boolean }
  | { readonly kind: 'file' }
  | { readonly kind: 'text'; readonly text: string; readonly expands: boolean };

export interface Ctx {
  readonly exists: (path: string) => boolean;
  readonly isDirectory: (path: string) => boolean;
  /** Whether a path as written (relative to the workspace; `glob`: a pattern) may lead outside the workspace. */
  readonly leaves: (path: string, glob: boolean) => boolean;
  readonly depth: number;
  readonly stdin: Stdin;
  /** Relative paths point somewhere else (`git -C dir`). */
  readonly elsewhere: boolean;
  /**
   * Shared by the whole line: a `cd` makes later relative paths unknown; `written` holds the
   * paths the line writes, so that running one of them later in the line is caught.
   */
  readonly state: { cwdUnknown: boolean; steps: number; readonly written: Set<string>; values?: LineValues };
  /** The walk is at the line's own top-level list (not in a group, a function, a substitution). */
  readonly top?: boolean;
  /** This command surely runs once in the line's own shell: what it sets is known after it. */
  readonly defines?: boolean;
  /** The walk, for a command that runs other commands (`bash -c`, `xargs`, `find -exec`). */
  readonly walk: Walk;
}

/**
 * The walk's entry points, handed in by whoever starts a walk (`command-risk.ts`). The walk
 * (`script.ts`) and the per-command classifiers (`dispatch.ts` and the files it calls) reach
 * each other through these, not through imports, so that no file of classify/ imports one that
 * imports it back.
 */
export interface Walk {
  /** One command's words, read by the classifier its name picks (`dispatch.ts`). */
  readonly argv: (words: readonly Word[], ctx: Ctx) => Finding[];
  /** A command line given as text: parsed, then walked (`script.ts`). */
  readonly line: (line: string, ctx: Ctx) => Finding[];
  /** A parsed line (`script.ts`). */
  readonly script: (script: Script, ctx: Ctx) => Finding[];
  /** The `$(…)` and backtick commands inside a word (`script.ts`). */
  readonly substitutions: (w: Word, ctx: Ctx) => Finding[];
}

export function deeper(ctx: Ctx, stdin: Stdin = ctx.stdin): Ctx {
  return { ...ctx, depth: ctx.depth + 1, stdin };
}
