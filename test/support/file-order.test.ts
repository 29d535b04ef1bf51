import { describe, expect, it } from 'vitest';
import { LEAVES_MEMORY_BEHIND, lastInTheirProject, longestFirstInTheirProject } from './file-order';

const file = (project: string, moduleId: string) => ({ project: { name: project }, moduleId });

describe('the suite file order', () => {
  it("puts the simulator's shards after the other files of their project, keeping every other place", () => {
    const files = [
      file('isolated', '/r/test/a.test.ts'),
      file('process', '/r/test/sim/fault-simulator-2.test.ts'),
      file('process', '/r/test/core/b.test.ts'),
      file('process', '/r/test/sim/fault-simulator-1.test.ts'),
      file('process', '/r/test/sim/plants.test.ts'),
      file('process-isolated', '/r/test/c.test.ts'),
      file('unit', '/r/test/d.test.ts'),
    ];
    expect(lastInTheirProject(files, LEAVES_MEMORY_BEHIND).map((f) => `${f.project.name} ${f.moduleId}`)).toEqual([
      'isolated /r/test/a.test.ts',
      'process /r/test/core/b.test.ts',
      'process /r/test/sim/plants.test.ts',
      'process /r/test/sim/fault-simulator-2.test.ts',
      'process /r/test/sim/fault-simulator-1.test.ts',
      'process-isolated /r/test/c.test.ts',
      'unit /r/test/d.test.ts',
    ]);
  });

  it('names each shard of the simulator and nothing else', () => {
    expect(LEAVES_MEMORY_BEHIND.test('/r/test/sim/fault-simulator-4.test.ts')).toBe(true);
    expect(LEAVES_MEMORY_BEHIND.test('/r/test/sim/fault-simulator-shard.ts')).toBe(false);
    expect(LEAVES_MEMORY_BEHIND.test('/r/test/sim/schedules-spread.test.ts')).toBe(false);
  });

  it('starts each project with its costliest file, never moving a file out of its project', () => {
    const cost: Record<string, number> = { '/r/a': 1, '/r/b': 30, '/r/c': 2, '/r/d': 9, '/r/e': 2, '/r/f': 5 };
    const files = [
      file('isolated', '/r/a'),
      file('isolated', '/r/b'),
      file('process', '/r/c'),
      file('process', '/r/d'),
      file('process', '/r/e'),
      file('unit', '/r/f'),
    ];
    expect(longestFirstInTheirProject(files, (f) => cost[f.moduleId]!).map((f) => f.moduleId)).toEqual([
      '/r/b',
      '/r/a',
      '/r/d',
      // c and e cost the same: they keep the order they came in.
      '/r/c',
      '/r/e',
      '/r/f',
    ]);
  });

  it('keeps the shards last even when they cost the most, as the sequencer applies both', () => {
    const cost = (f: { moduleId: string }): number => (LEAVES_MEMORY_BEHIND.test(f.moduleId) ? 60 : f.moduleId.length);
    const files = [
      file('process', '/r/test/sim/fault-simulator-1.test.ts'),
      file('process', '/r/test/x.test.ts'),
      file('process', '/r/test/adversarial/corpus.test.ts'),
    ];
    const ordered = lastInTheirProject(longestFirstInTheirProject(files, cost), LEAVES_MEMORY_BEHIND);
    expect(ordered.map((f) => f.moduleId)).toEqual([
      '/r/test/adversarial/corpus.test.ts',
      '/r/test/x.test.ts',
      '/r/test/sim/fault-simulator-1.test.ts',
    ]);
  });
});
