import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { CasConflictError, machineState, transition } from '../../../src/core/machine/machine';
import { createStore, openStore, snapshot, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

describe('machine transitions are a compare-and-set on the state seq', () => {
  it('rejects a stale expected seq with CasConflictError and changes nothing', () => {
    const store = createStore(dir.path);
    const first = transition(store, 0, 'Planning');
    expect(first.state).toEqual({ pc: 'Planning', seq: 1 });
    const before = snapshot(store);
    const bytes = readFileSync(store.path);

    const stale = (): unknown => transition(store, 0, 'Final');
    expect(stale).toThrow(CasConflictError);
    expect(stale).toThrowError(expect.objectContaining({ kind: 'cas-conflict', expectedSeq: 0, actualSeq: 1 }));
    expect(snapshot(store)).toEqual(before);
    expect(readFileSync(store.path).equals(bytes)).toBe(true);

    expect(transition(store, 1, 'Final').state).toEqual({ pc: 'Final', seq: 2 });
    store.close();
  });

  it('lets only one of two drivers that read the same state advance', () => {
    const store = createStore(dir.path);
    transition(store, 0, 'Planning');
    const seenByA = machineState(store);
    const seenByB = machineState(store);
    const outcomes = [
      () =>
        transition(store, seenByA.seq, 'ToolCall', [
          { kind: 'register', op: 'set', namespace: 'op.state', key: 'call_a', value: { by: 'A' } },
        ]),
      () =>
        transition(store, seenByB.seq, 'Final', [
          { kind: 'register', op: 'set', namespace: 'op.state', key: 'call_b', value: { by: 'B' } },
        ]),
    ].map((drive) => {
      try {
        return drive().state.pc;
      } catch (error) {
        return error instanceof CasConflictError ? 'conflict' : error;
      }
    });
    expect(outcomes).toEqual(['ToolCall', 'conflict']);
    expect(store.registers.get('op.state', 'call_b')).toBeUndefined();
    store.close();

    const reopened = openStore(store.path);
    expect(machineState(reopened)).toEqual({ pc: 'ToolCall', seq: 3 });
    expect(reopened.registers.get('op.state', 'call_a')).toEqual({ by: 'A' });
    expect(reopened.registers.get('op.state', 'call_b')).toBeUndefined();
    reopened.close();
  });

  it('keeps the state seq across a reopen, so a driver holding an old seq is still refused', () => {
    const store = createStore(dir.path);
    transition(store, 0, 'Planning');
    transition(store, 1, 'Final');
    store.close();
    const reopened = openStore(store.path);
    expect(() => transition(reopened, 1, 'Planning')).toThrow(CasConflictError);
    expect(transition(reopened, 2, 'Planning').state.seq).toBe(3);
    reopened.close();
  });
});
