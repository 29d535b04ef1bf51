import picomatch from 'picomatch';

/**
 * The rules of one `.gitignore`, for a workspace that is not a git repository (in one, git's own
 * list is used). The common forms: comments, `!` to take a path back, a trailing `/` for
 * directories only, a `/` at the start or in the middle anchoring a pattern to the file's folder,
 * `*`, `?`, `[...]` and `**`. Matched with picomatch (already tole's glob matcher) rather than a
 * gitignore package: the screen's node_modules is shared and fixed while tole is worked on.
 */
export interface GitignoreRules {
  /** True when `relative` (below the `.gitignore`'s folder, `/`-separated) is ignored; null when no rule speaks of it. */
  ignores(relative: string, directory: boolean): boolean | null;
}

interface Rule {
  readonly negate: boolean;
  readonly directoryOnly: boolean;
  readonly matches: (path: string) => boolean;
}

export function gitignoreRules(text: string): GitignoreRules {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) line = line.replace(/\/+$/, '');
    const anchored = line.includes('/');
    const pattern = line.replace(/^\//, '');
    if (pattern === '') continue;
    const glob = anchored ? pattern : `**/${pattern}`;
    const matcher = picomatch(glob, { dot: true });
    // A pattern naming a directory ignores what is below it too.
    const below = picomatch(`${glob}/**`, { dot: true });
    rules.push({ negate, directoryOnly, matches: (path) => matcher(path) || below(path) });
  }
  return {
    ignores(relative, directory) {
      let verdict: boolean | null = null;
      for (const rule of rules) {
        if (rule.directoryOnly && !directory && !rule.matches(parentsOf(relative))) continue;
        if (rule.matches(relative)) verdict = !rule.negate;
      }
      return verdict;
    },
  };
}

/** `a/b/c.txt` → `a/b` (a directory-only rule matches a file below the directory it names). */
function parentsOf(relative: string): string {
  const at = relative.lastIndexOf('/');
  return at === -1 ? '' : relative.slice(0, at);
}
