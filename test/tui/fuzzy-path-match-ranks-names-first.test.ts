import { describe, expect, it } from 'vitest';
import { PathIndex } from '../../src/tui/prompt/workspace-paths';
import { bestMatches, fuzzyScore, preparePath } from '../../src/tui/prompt/fuzzy-path-match';

describe('fuzzy path matching', () => {
  it('needs every typed character in order, case ignored', () => {
    expect(fuzzyScore('apz', preparePath('src/App.tsx'))).toBeNull();
    expect(fuzzyScore('aptsx', preparePath('src/App.tsx'))).not.toBeNull();
    expect(fuzzyScore('xa', preparePath('src/App.tsx'))).toBeNull();
  });

  it('ranks the file whose name holds the text above one where it is scattered, and shorter paths first', () => {
    const targets = ['src/cli/main.ts', 'src/tui/markdown-inline.ts', 'test/main.test.ts', 'a/m/a/i/n.ts'].map(
      preparePath,
    );
    expect(bestMatches('main', targets, 3).map((t) => t.path)).toEqual([
      'src/cli/main.ts',
      'test/main.test.ts',
      'src/tui/markdown-inline.ts',
    ]);
  });

  it('keeps the best `limit` in order whatever order the paths come in', () => {
    const names = Array.from({ length: 500 }, (_, i) => `dir${i % 7}/file${i}.ts`);
    const forward = bestMatches('file1', names.map(preparePath), 5).map((t) => t.path);
    const backward = bestMatches('file1', [...names].reverse().map(preparePath), 5).map((t) => t.path);
    expect(forward).toEqual(backward);
    expect(forward).toHaveLength(5);
    expect(forward[0]).toBe('dir1/file1.ts');
  });

  it('an index knows the directories above its files and offers the shortest paths for nothing typed', () => {
    const index = PathIndex.of(['src/tui/App.tsx', 'README.md']);
    expect(index.size).toBe(4);
    expect(index.search('', 3)).toEqual([
      { path: 'src', directory: true },
      { path: 'src/tui', directory: true },
      { path: 'README.md', directory: false },
    ]);
    expect(index.search('src/tu/', 1)).toEqual([{ path: 'src/tui', directory: true }]);
  });
});
