import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { lockPathFor } from '../../src/core/storage/lock-file';
import { createStore, openStore, tempDir } from '../support/storage-fixtures';
import { unlockIn, type UnlockRun } from '../support/unlock-in-process';

const dir = tempDir('tole-unlock-');
afterAll(() => dir.remove());

function unlock(path: string, ...flags: string[]): UnlockRun {
  return unlockIn(dir.path, path, ...flags);
}

describe('tole unlock PATH', () => {
  it('refuses while this very tole holds the lock, and removes it once that holder is gone', () => {
    const store = createStore(dir.path);
    const held = unlock(store.path);
    expect(held.code).toBe(1);
    expect(held.err).toContain('not unlocked: this tole');
    expect(existsSync(lockPathFor(store.path))).toBe(true);
    store.close();
    expect(unlock(store.path)).toMatchObject({ code: 0, out: expect.stringContaining('is not locked') });
  });

  it('removes a lock whose holder cannot be checked only with --force, naming it, so that the session opens again', () => {
    const store = createStore(dir.path);
    store.close();
    writeFileSync(
      lockPathFor(store.path),
      JSON.stringify({ pid: 4242, host: 'elsewhere.example', nonce: 'n', createdAt: 1 }),
    );
    expect(() => openStore(store.path)).toThrow(`run tole unlock ${store.path}`);
    const refused = unlock(store.path);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('pid 4242 on elsewhere.example');
    expect(refused.err).toContain('a second writer would corrupt it');
    expect(refused.err).toContain(`tole unlock ${store.path} --force`);
    expect(existsSync(lockPathFor(store.path))).toBe(true);
    const run = unlock(store.path, '--force');
    expect(run).toMatchObject({
      code: 0,
      out: expect.stringContaining('removed the lock of pid 4242 on elsewhere.example'),
    });
    openStore(store.path).close();
  });

  it('is a command of the CLI (exit 2 without a path)', async () => {
    let err = '';
    const stream = { write: (chunk: string) => ((err += chunk), true) } as unknown as NodeJS.WritableStream;
    expect(await main({ argv: ['unlock'], env: {}, cwd: dir.path, stdout: stream, stderr: stream })).toBe(2);
    expect(err).toContain('tole unlock PATH');
  });
});
