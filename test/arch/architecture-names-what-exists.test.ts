/**
 * ARCHITECTURE.md is a new maintainer's map: every source path it names in backticks (from the
 * repository's root, or within the folder its line speaks of) is a file or folder that exists.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo-root';

/** Every file and folder under `dir`, relative to the repository's root. */
function pathsUnder(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(join(REPO_ROOT, path)).isDirectory() ? [path, ...pathsUnder(path)] : [path];
  });
}

/** The backticked paths of `text`: a word with a slash or a source file's extension; placeholders, options and /commands left out. */
function namedPaths(text: string): string[] {
  return [...text.matchAll(/`([\w./-]+)`/g)]
    .map((match) => match[1] as string)
    .filter((name) => !/^[-/]/.test(name) && (/\.(tsx?|mjs|md)$/.test(name) || name.includes('/')));
}

/** Whether `name` is a path of `known`, whole or as its end (a name given within its folder). */
function exists(name: string, known: readonly string[]): boolean {
  const bare = name.replace(/\/$/, '');
  return known.some((path) => path === bare || path.endsWith(`/${bare}`));
}

describe('ARCHITECTURE.md', () => {
  it('names only paths that exist', () => {
    const known = [...pathsUnder('src'), ...pathsUnder('test'), 'README.md', 'ARCHITECTURE.md'];
    const named = namedPaths(readFileSync(join(REPO_ROOT, 'ARCHITECTURE.md'), 'utf8'));
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((name) => !exists(name, known))).toEqual([]);
  });

  it('reads placeholders, options and commands as no path, and a moved file as missing', () => {
    const named = namedPaths(
      '`core/provider/<kind>/` `tui/frame/frame-writer.ts` `--yes` `/cost` `Agent.runTurn` `keymap.ts`',
    );
    expect(named).toEqual(['tui/frame/frame-writer.ts', 'keymap.ts']);
    expect(exists('tui/frame/frame-writer.ts', ['src/tui/frame/frame-writer.ts'])).toBe(true);
    expect(exists('keymap.ts', ['src/tui/input/keymap.ts'])).toBe(true);
    expect(exists('tui/input/frame-writer.ts', ['src/tui/frame/frame-writer.ts'])).toBe(false);
    expect(exists('builtin/', ['src/core/tools/builtin'])).toBe(true);
  });
});
