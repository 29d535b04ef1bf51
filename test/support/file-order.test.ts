import { describe, expect, it } from 'vitest';
import { LEAVES_MEMORY_BEHIND, lastInTheirProject } from './file-order';

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
});
