import { describe, expect, it } from 'vitest';
import { PathIndex } from '../../src/tui/prompt/workspace-paths';

const paths = (index: PathIndex, typed: string, limit = 8) => index.search(typed, limit).map((item) => item.path);

describe('workspace path search', () => {
  it('needs every typed character in order, case ignored', () => {
    const index = PathIndex.of(['src/App.tsx']);
    expect(paths(index, 'apz')).toEqual([]);
    expect(paths(index, 'aptsx')).toEqual(['src/App.tsx']);
    expect(paths(index, 'xa')).toEqual([]);
  });

  it('ranks the file whose name holds the text above one where it is scattered', () => {
    const index = PathIndex.of(['a/m/a/i/n.ts', 'src/tui/markdown-inline.ts', 'src/cli/main.ts', 'test/main.test.ts']);
    const found = paths(index, 'main', 4);
    expect(found.slice(0, 2).sort()).toEqual(['src/cli/main.ts', 'test/main.test.ts']);
    expect(found.indexOf('src/tui/markdown-inline.ts')).toBeGreaterThan(1);
  });

  it('finds one file among 20,000 by its name, before the names that only start with it and whatever folders come first', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `dir${i % 7}/sub${i % 13}/file${i}.ts`);
    expect(paths(PathIndex.of(names), 'file1234', 3)).toEqual([
      'dir2/sub12/file1234.ts',
      'dir0/sub4/file12341.ts',
      'dir1/sub5/file12342.ts',
    ]);
  });

  it('finds a path whose folders spell the query among hundreds of shorter ones that hold its letters scattered', () => {
    const scattered = Array.from({ length: 600 }, (_, i) => `sxrxcxpxaxrxs${i}`);
    const found = paths(PathIndex.of([...scattered, 'src/parser/index.ts']), 'srcpars', 3);
    expect(found.slice(0, 2)).toEqual(['src/parser', 'src/parser/index.ts']);
  });

  it('matches as fuzzysort does: case and the accents of Latin letters are ignored, on either side', () => {
    const index = PathIndex.of(['docs/Café-Menu.md', 'src/cafe.ts', 'lib/ÉCOLE.txt']);
    expect(paths(index, 'cafemenu')).toEqual(['docs/Café-Menu.md']);
    expect(paths(index, 'CAFÉ')[0]).toBe('src/cafe.ts');
    expect(paths(index, 'ecole')).toEqual(['lib/ÉCOLE.txt']);
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

  it('built a slice at a time, pauses between slices and answers as one built at once; a new build holds only its own paths', async () => {
    const names = Array.from({ length: 5_000 }, (_, i) => `d${i % 5}/n${i}.md`);
    let pauses = 0;
    const pause = async () => {
      pauses++;
    };
    const built = await PathIndex.build(names, pause);
    expect(pauses).toBeGreaterThan(1);
    for (const typed of ['n4999', 'd3', ''])
      expect(built.search(typed, 5)).toEqual(PathIndex.of(names).search(typed, 5));
    const next = await PathIndex.build(['d1/n1.md', 'fresh/new-file.ts'], pause);
    expect(paths(next, 'n4999')).toEqual([]);
    expect(paths(next, 'newfile')).toEqual(['fresh/new-file.ts']);
    expect(paths(next, 'n1')).toEqual(['d1/n1.md']);
  });
});
