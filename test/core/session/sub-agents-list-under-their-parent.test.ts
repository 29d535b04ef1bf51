/**
 * The listing order of `tole sessions` and the picker: each sub-agent right under its parent, in
 * the order they were started, with what the children cost rolled up into the parent's row.
 */
import { describe, expect, it } from 'vitest';
import { withChildrenUnderParents } from '../../../src/core/session/session-family';
import type { SessionSummary } from '../../../src/core/session/session-summary';
import { formatCost } from '../../../src/core/usage/cost-text';

function session(id: string, cost: number, parentId?: string, unpriced = false, estimated = false): SessionSummary {
  return {
    id,
    path: `/s/${id}.jsonl`,
    cwd: '/w',
    createdAt: 0,
    firstPrompt: id,
    name: null,
    entries: 1,
    branches: 1,
    costUsdMicros: cost,
    unpriced,
    estimated,
    problem: null,
    task: parentId === undefined ? null : { parentId, callId: `call_${id}`, agent: null },
  };
}

describe('sessions with sub-agents, as listed', () => {
  it('puts each child under its parent, children oldest first, grandchildren under them, costs rolled up', () => {
    // Newest first, as the files sort: the children are newer than their parent.
    const listed = withChildrenUnderParents([
      session('9-c2', 30, '5-p'),
      session('8-g', 7, '6-c1'),
      session('7-other', 1),
      session('6-c1', 20, '5-p'),
      session('5-p', 100),
    ]);

    expect(listed.map((s) => [s.id, s.depth, s.childrenCostUsdMicros])).toEqual([
      ['7-other', 0, 0],
      ['5-p', 0, 57],
      ['6-c1', 1, 7],
      ['8-g', 2, 0],
      ['9-c2', 1, 0],
    ]);
  });

  it('lists a child whose parent is not there on its own, and cuts a cycle of hand-edited headers', () => {
    const listed = withChildrenUnderParents([
      session('3-orphan', 5, '1-gone'),
      session('2-a', 1, '4-b'),
      session('4-b', 1, '2-a'),
    ]);

    expect(listed.map((s) => [s.id, s.depth])).toEqual([
      ['3-orphan', 0],
      ['2-a', 0],
      ['4-b', 1],
    ]);
  });

  it('marks a cost with +? up the family when a call somewhere had no price, and only there', () => {
    const listed = withChildrenUnderParents([
      session('8-g', 0, '6-c1', true),
      session('7-other', 3),
      session('6-c1', 20, '5-p'),
      session('5-p', 100),
    ]);
    expect(listed.map((s) => [s.id, s.unpriced, s.childrenUnpriced])).toEqual([
      ['7-other', false, false],
      ['5-p', false, true],
      ['6-c1', false, true],
      ['8-g', true, false],
    ]);
    expect(formatCost(0, true)).toBe('$0+?');
    expect(formatCost(410_000, false)).toBe('$0.410');
  });

  it('marks a cost with ~ up the family when a call somewhere was cut off and is an estimate', () => {
    const listed = withChildrenUnderParents([
      session('8-g', 900, '6-c1', false, true),
      session('6-c1', 20, '5-p'),
      session('5-p', 100),
    ]);
    expect(listed.map((s) => [s.id, s.estimated, s.childrenEstimated])).toEqual([
      ['5-p', false, true],
      ['6-c1', false, true],
      ['8-g', true, false],
    ]);
    expect(formatCost(1_234_000, true, true)).toBe('~$1.23+?');
    expect(formatCost(410_000, false, false)).toBe('$0.410');
  });
});
