import { afterAll, describe, expect, it } from 'vitest';
import { CasConflictError, machineState, transition } from '../../../../src/core/machine/machine';
import { openStore, snapshot, tempDir } from '../../../support/storage-fixtures';
import { BACKENDS, createIn, diskState, skipUnavailable } from './backends';

const dir = tempDir();
afterAll(() => dir.remove());

describe.each(BACKENDS)('%s backend: machine transitions are a compare-and-set on the state seq', (backend) => {
  if (skipUnavailable(backend)) return;

  it('rejects a stale seq and writes nothing; of two drivers that read the same state only one advances', () => {
    const store = createIn(dir.path, backend);
    expect(transition(store, 0, 'Planning').state).toEqual({ pc: 'Planning', seq: 1 });
    const before = snapshot(store);
    const disk = diskState(store.path);
    expect(() => transition(store, 0, 'Final')).toThrowError(
      expect.objectContaining({ kind: 'cas-conflict', expectedSeq: 0, actualSeq: 1 }),
    );
    expect(snapshot(store)).toEqual(before);
    expect(diskState(store.path)).toEqual(disk);

    const seen = machineState(store);
    expect(
      transition(store, seen.seq, 'ToolCall', [
        { kind: 'register', op: 'set', namespace: 'op.state', key: 'call_a', value: { by: 'A' } },
      ]).state.pc,
    ).toBe('ToolCall');
    expect(() =>
      transition(store, seen.seq, 'Final', [
        { kind: 'register', op: 'set', namespace: 'op.state', key: 'call_b', value: { by: 'B' } },
      ]),
    ).toThrow(CasConflictError);
    store.close();

    const reopened = openStore(store.path);
    expect(machineState(reopened)).toEqual({ pc: 'ToolCall', seq: 3 });
    expect(reopened.registers.get('op.state', 'call_a')).toEqual({ by: 'A' });
    expect(reopened.registers.get('op.state', 'call_b')).toBeUndefined();
    expect(() => transition(reopened, 1, 'Executing')).toThrow(CasConflictError);
    expect(transition(reopened, 3, 'Executing').state).toEqual({ pc: 'Executing', seq: 4 });
    reopened.close();
  });
});
