import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, entryCommit, openStore, snapshot, tempDir } from '../../support/storage-fixtures';
import { childScript } from '../../support/test-children';

const dir = tempDir();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  dir.remove();
});

/** Starts a process that opens `path` for writing and holds it; resolves once it has. */
async function holder(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [childScript('storage-lock-holder'), path], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  child.stdout!.setEncoding('utf8');
  while (!out.includes('\n')) {
    const [chunk] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [null])])) as [
      string | null,
    ];
    if (chunk === null) throw new Error(`holder exited: ${err}`);
    out += chunk;
  }
  expect(out).toMatch(new RegExp(`^ready ${child.pid} `));
  return child;
}

describe('two processes opening one session', () => {
  it('refuse the second with "locked by pid N", allow a read-only view, and let it in once the first is gone', async () => {
    const store = createStore(dir.path);
    store.commit(entryCommit(store, null, 'before the holder'));
    const state = snapshot(store);
    store.close();

    const first = await holder(store.path);
    expect(() => openStore(store.path)).toThrowError(
      expect.objectContaining({ kind: 'locked', details: expect.objectContaining({ pid: first.pid }) }),
    );
    expect(() => openStore(store.path)).toThrowError(`session is locked by pid ${first.pid}`);
    const view = openStore(store.path, { readOnly: true });
    expect(snapshot(view)).toEqual(state);
    view.close();

    first.kill('SIGKILL');
    await once(first, 'exit');
    const after = openStore(store.path);
    after.commit(entryCommit(after, 'e_1', 'after the holder died'));
    expect(after.lastSeq).toBe(state.lastSeq + 2);
    after.close();
  });
});
