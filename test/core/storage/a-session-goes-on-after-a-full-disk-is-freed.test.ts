/**
 * A session on a disk that fills and is freed again while the same tole holds it open, for real:
 * a small tmpfs mounted in the test's own temp folder (root only; skipped, saying why, elsewhere).
 * The disk is left with room for 0 to 12 pages before each commit of a 20 KiB entry: a commit is
 * acknowledged only when written whole; one refused leaves no line behind (the handle cut its
 * partial write away), and the same handle commits again once space is freed, without taking the
 * cut for a change made by another process. A reopen reads back exactly what was acknowledged.
 */
import { statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isStorageError } from '../../../src/core/storage/errors';
import { smallTmpfs } from '../../support/small-tmpfs';
import { createStore, entryCommit, openStore, tempDir } from '../../support/storage-fixtures';

const dir = tempDir('tole-full-and-freed-');
const disk = smallTmpfs(dir.path, '1m');
if (disk.skipped !== null) console.log(`a-session-goes-on-after-a-full-disk-is-freed: skipped (${disk.skipped})`);
afterAll(() => {
  disk.unmount();
  dir.remove();
});

describe('a session whose disk fills and is freed while it is open', () => {
  it.skipIf(disk.skipped !== null)(
    'acknowledges only whole commits, and the same handle goes on after space is freed',
    () => {
      const store = createStore(disk.path);
      const acknowledged: string[] = [];
      let parent: string | null = null;
      let refused = 0;
      try {
        for (let pages = 0; pages <= 12; pages++) {
          const filler = join(disk.path, 'filler');
          const free = disk.fill('filler');
          truncateSync(filler, Math.max(0, statSync(filler).size - pages * 4096));
          const drafts = entryCommit(store, parent, `${pages} ${'x'.repeat(20 * 1024)}`);
          const id = (drafts[0] as { id: string }).id;
          try {
            store.commit(drafts);
            acknowledged.push(id);
            parent = id;
          } catch (error) {
            if (!isStorageError(error, 'not-committed')) throw error;
            expect(error.message, `room for ${pages} pages`).toMatch(/ENOSPC/);
            expect(store.entry(id), 'nothing taken in').toBeUndefined();
            refused++;
          }
          // Not a byte of a refused commit is left: the file ends where the last acknowledged one did.
          expect(statSync(store.path).size, `room for ${pages} pages`).toBe(store.sizeBytes);
          free();
          // With room again the same handle commits: its own cut was not a change behind it.
          const next = entryCommit(store, parent, `after ${pages}`);
          store.commit(next);
          parent = (next[0] as { id: string }).id;
          acknowledged.push(parent);
        }
        expect(refused).toBeGreaterThan(0);
        expect(refused).toBeLessThan(13);
      } finally {
        store.close();
      }
      const reopened = openStore(store.path);
      try {
        expect(reopened.report.tornTail).toBeNull();
        expect([...reopened.tree.all()].map((e) => e.id)).toEqual(acknowledged);
      } finally {
        reopened.close();
      }
    },
  );
});
