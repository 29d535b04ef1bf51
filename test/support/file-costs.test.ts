import { describe, expect, it } from 'vitest';
import { costEstimator, costsFromLogs } from './file-costs';

const line = (file: string, seconds: number, wall0 = 1_000_000): string =>
  JSON.stringify({ file, pid: 1, wall0, wall1: wall0 + seconds * 1000, self: 0, children: 0 });

describe('the table of what each test file costs', () => {
  const present = new Set(['test/a.test.ts', 'test/sim/b.test.ts', 'test/c.test.ts', 'test/kept.test.ts']);
  const exists = (relative: string): boolean => present.has(relative);

  it('holds each logged file by its path in the repository, the mean of its spans over the logs', () => {
    const first = [line('/tmp/clone/test/a.test.ts', 2), line('/tmp/clone/test/sim/b.test.ts', 10.04)].join('\n');
    const second = `${line('/work/wt/x/test/a.test.ts', 4)}\n\n`;
    expect(costsFromLogs([first, second], {}, exists)).toEqual({ 'test/a.test.ts': 3, 'test/sim/b.test.ts': 10 });
  });

  it("finds the repository's test folder when the clone's own path holds a test folder", () => {
    const log = line('/home/test/work/test/clone/test/c.test.ts', 1.5);
    expect(costsFromLogs([log], {}, exists)).toEqual({ 'test/c.test.ts': 1.5 });
  });

  it('keeps the earlier figure of a file no log holds, drops files that are gone, and sorts by path', () => {
    const log = [line('/r/test/c.test.ts', 7), line('/r/test/gone.test.ts', 5), line('?', 3)].join('\n');
    const earlier = { 'test/kept.test.ts': 4, 'test/c.test.ts': 1, 'test/renamed.test.ts': 9 };
    const costs = costsFromLogs([log], earlier, exists);
    expect(costs).toEqual({ 'test/c.test.ts': 7, 'test/kept.test.ts': 4 });
    expect(Object.keys(costs)).toEqual(['test/c.test.ts', 'test/kept.test.ts']);
  });

  it('skips a line whose end comes before its start', () => {
    const log = JSON.stringify({ file: '/r/test/a.test.ts', wall0: 2000, wall1: 1000 });
    expect(costsFromLogs([log], {}, exists)).toEqual({});
  });
});

describe('the cost of a file', () => {
  const sizes: Record<string, number> = { m1: 1000, m2: 3000, new: 2000, lone: 500, other: 100 };
  const sizeOf = (file: string): number => sizes[file] ?? 0;

  it('is its measured figure when the table has one', () => {
    const costOf = costEstimator({ m1: 12 }, { process: ['m1'] }, sizeOf);
    expect(costOf('m1')).toBe(12);
  });

  it("is otherwise its size at its own group's measured seconds per byte", () => {
    // process: 4 s over 4,000 bytes measured, so 1 ms a byte; unit: 1 s over 100 bytes.
    const costOf = costEstimator({ m1: 1, m2: 3, other: 1 }, { process: ['m1', 'm2', 'new'], unit: ['other'] }, sizeOf);
    expect(costOf('new')).toBeCloseTo(2);
  });

  it('uses every measured file when its group has none, and its size alone with no table at all', () => {
    const groups = { process: ['m1', 'm2'], screen: ['lone'] };
    expect(costEstimator({ m1: 1, m2: 3 }, groups, sizeOf)('lone')).toBeCloseTo(0.5);
    expect(costEstimator({}, groups, sizeOf)('lone')).toBe(500);
  });
});
