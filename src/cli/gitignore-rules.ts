import ignore from 'ignore';

/**
 * The rules of one `.gitignore`, for a workspace that is not a git repository (in one, git's own
 * list is used), read by the `ignore` package as git reads them: comments, `!` to take a path
 * back, a trailing `/` for directories only, anchoring, `*`, `?`, `[...]`, `**` and `\` escapes.
 * Case matters, as in git on Linux.
 */
export interface GitignoreRules {
  /** True when `relative` (below the `.gitignore`'s folder, `/`-separated) is ignored; false when a `!` rule takes it back; null when no rule speaks of it. */
  ignores(relative: string, directory: boolean): boolean | null;
}

export function gitignoreRules(text: string): GitignoreRules {
  const rules = ignore({ ignorecase: false }).add(text);
  return {
    ignores(relative, directory) {
      const verdict = rules.test(directory ? `${relative}/` : relative);
      if (verdict.ignored) return true;
      return verdict.unignored ? false : null;
    },
  };
}
