import { afterAll, describe, expect, it } from 'vitest';
import { createStorage, extensionOf } from '../../../../src/core/storage/backends';
import { LINE_CRC, STORAGE_VERSION, type SessionHeader } from '../../../../src/core/storage/records';
import { entryCommit, openStore, tempDir } from '../../../support/storage-fixtures';
import { BACKENDS, createIn, skipUnavailable } from './backends';

const dir = tempDir();
afterAll(() => dir.remove());

describe.each(BACKENDS)('%s backend: seq', (backend) => {
  if (skipUnavailable(backend)) return;

  it('increases strictly across commits and reopens, also when the last commit only deleted a register', () => {
    const store = createIn(dir.path, backend);
    const seqs: number[] = [];
    const [entry] = store.commit(entryCommit(store, null, 'one'));
    seqs.push(entry!.seq);
    seqs.push(store.commit([{ kind: 'register', op: 'set', namespace: 'op.state', key: 'k', value: 1 }])[0]!.seq);
    seqs.push(store.commit([{ kind: 'register', op: 'set', namespace: 'op.state', key: 'k', value: 2 }])[0]!.seq);
    seqs.push(store.commit([{ kind: 'register', op: 'delete', namespace: 'op.state', key: 'k' }])[0]!.seq);
    store.close();

    const reopened = openStore(store.path);
    expect(reopened.lastSeq).toBe(seqs.at(-1));
    const [next] = reopened.commit(entryCommit(reopened, 'e_1', 'two'));
    seqs.push(next!.seq);
    reopened.close();
    expect(seqs).toEqual([1, 3, 4, 5, 6]);
  });

  it('is never accepted going backwards: the backend refuses the commit, or the next open refuses the session', () => {
    const header: SessionHeader = {
      v: 1,
      kind: 'header',
      id: `backwards-${backend}`,
      storageVersion: STORAGE_VERSION,
      createdAt: 1,
      cwd: '/w',
      lineCrc: LINE_CRC,
    };
    const path = `${dir.path}/backwards${extensionOf(backend)}`;
    const storage = createStorage(backend, path, header, { nonce: 'n1', nowMs: 1 });
    const entry = (seq: number, id: string) =>
      ({ kind: 'entry', seq, timestamp: 1, id, parentId: null, type: 'user', payload: { text: id } }) as const;
    storage.append(entry(5, 'e_1'));
    let refusedAtAppend = false;
    try {
      storage.append(entry(5, 'e_2'));
    } catch (error) {
      expect(error).toMatchObject({ kind: 'invalid-commit' });
      refusedAtAppend = true;
    }
    storage.close();
    if (refusedAtAppend) {
      const reopened = openStore(path);
      expect(reopened.lastSeq).toBe(5);
      expect(reopened.tree.size).toBe(1);
      reopened.close();
    } else {
      expect(() => openStore(path)).toThrowError(
        expect.objectContaining({ kind: 'corrupt', message: expect.stringContaining('seq 5 does not increase') }),
      );
    }
  });
});
