/** What the classifier carries through a line: the workspace questions, stdin, nesting, shared state. */

export type Stdin =
  | { readonly kind: 'terminal' }
  | { readonly kind: 'pipe'; readonly download: boolean }
  | { readonly kind: 'file' }
  | { readonly kind: 'text'; readonly text: string; readonly expands: boolean };

export interface Ctx {
  readonly exists: (path: string) => boolean;
  readonly isDirectory: (path: string) => boolean;
  readonly depth: number;
  readonly stdin: Stdin;
  /** Relative paths point somewhere else (`git -C dir`). */
  readonly elsewhere: boolean;
  /**
   * Shared by the whole line: a `cd` makes later relative paths unknown; `written` holds the
   * paths the line writes, so that running one of them later in the line is caught.
   */
  readonly state: { cwdUnknown: boolean; steps: number; readonly written: Set<string> };
}

export function deeper(ctx: Ctx, stdin: Stdin = ctx.stdin): Ctx {
  return { ...ctx, depth: ctx.depth + 1, stdin };
}
