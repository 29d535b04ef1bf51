/**
 * tole's checkpoint directory on a disk that fills, for real: a small tmpfs mounted in the test's
 * own temp folder (root only; skipped, saying why, elsewhere). A checkpoint that cannot be written
 * whole must fail (the ref stays where it was, naming a checkpoint every object of which reads),
 * say that the disk is full and what to do, and once space is freed the next one is taken, on the
 * same chain.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { tempDirs } from '../../support/agent-fixtures';
import { fileInCheckpoint, inCheckpoints } from '../../support/checkpoint-reads';
import { smallTmpfs } from '../../support/small-tmpfs';

const dirs = tempDirs('tole-checkpoint-full-');
const disk = smallTmpfs(dirs.parent, '4m');
if (disk.skipped !== null) console.log(`a-full-disk-fails-a-checkpoint: skipped (${disk.skipped})`);
afterAll(() => {
  disk.unmount();
  dirs.remove();
});

describe('a checkpoint on a full disk', () => {
  it.skipIf(disk.skipped !== null)(
    'fails saying the disk is full, leaves the ref on a whole checkpoint, and the next one after space is freed is taken on the chain',
    async () => {
      const home = join(disk.path, 'home');
      const checkpoints = Checkpoints.create({ home, workspaceRoot: dirs.root });
      try {
        writeFileSync(join(dirs.root, 'kept.txt'), 'kept\n');
        const first = await checkpoints.take();
        if (!first.ok) throw new Error(`first checkpoint failed: ${first.reason}`);

        const free = disk.fill('filler');
        // Random bytes do not compress: the blob cannot fit.
        const big = randomBytes(256 * 1024).toString('base64');
        writeFileSync(join(dirs.root, 'big.txt'), big);
        const failed = await checkpoints.take();
        expect(failed.ok).toBe(false);
        if (failed.ok) return;
        expect(failed.reason).toMatch(/full/);
        expect(failed.reason).toMatch(/free some space/);
        expect(failed.reason).toContain(checkpoints.directory);
        expect(inCheckpoints(checkpoints, 'rev-parse', 'refs/tole/checkpoints').trim()).toBe(first.id);
        expect(inCheckpoints(checkpoints, 'fsck', '--connectivity-only', '--no-dangling', first.id)).toBe('');

        // Still full: each later one fails too, told in a short line.
        const again = await checkpoints.take();
        expect(again).toMatchObject({ ok: false, firstReport: false, inARow: 2 });

        free();
        const after = await checkpoints.take();
        if (!after.ok) throw new Error(`checkpoint after space was freed failed: ${after.reason}`);
        expect(after.afterFailures).toBe(2);
        expect(inCheckpoints(checkpoints, 'rev-parse', `${after.id}^1`).trim()).toBe(first.id);
        expect(fileInCheckpoint(checkpoints.directory, after.id, 'big.txt')).toBe(big);
        expect(inCheckpoints(checkpoints, 'fsck', '--connectivity-only', '--no-dangling', after.id)).toBe('');
        // Nothing a failed write began is left in the directory's top level (own indexes, locks, temp files).
        expect(readdirSync(checkpoints.directory).filter((n) => /lock|tole-index|tmp/.test(n))).toEqual([]);
      } finally {
        checkpoints.close();
      }
    },
  );

  it.skipIf(disk.skipped !== null)(
    'with room for 0 to 16 pages: each either is taken whole or fails leaving the ref on a whole one, and after space is freed the next is taken',
    async () => {
      const home = join(disk.path, 'home-pages');
      const checkpoints = Checkpoints.create({ home, workspaceRoot: dirs.root });
      const seen = { taken: 0, failed: 0 };
      try {
        writeFileSync(join(dirs.root, 'kept.txt'), 'kept\n');
        const first = await checkpoints.take();
        if (!first.ok) throw new Error(`first checkpoint failed: ${first.reason}`);
        let head = first.id;
        for (let pages = 0; pages <= 16; pages++) {
          const filler = join(disk.path, 'filler-pages');
          const free = disk.fill('filler-pages');
          truncateSync(filler, Math.max(0, statSync(filler).size - pages * 4096));
          const content = randomBytes(24 * 1024).toString('base64');
          writeFileSync(join(dirs.root, `file-${pages % 3}.txt`), content);
          const taken = await checkpoints.take();
          const ref = inCheckpoints(checkpoints, 'rev-parse', 'refs/tole/checkpoints').trim();
          if (taken.ok) {
            seen.taken++;
            expect(ref, `room for ${pages} pages`).toBe(taken.id);
            expect(inCheckpoints(checkpoints, 'rev-parse', `${taken.id}^1`).trim()).toBe(head);
            expect(fileInCheckpoint(checkpoints.directory, taken.id, `file-${pages % 3}.txt`)).toBe(content);
            head = taken.id;
          } else {
            seen.failed++;
            expect(taken.reason, `room for ${pages} pages`).toMatch(/is full .*free some space/);
            expect(ref, `room for ${pages} pages: the ref stays`).toBe(head);
          }
          expect(
            inCheckpoints(checkpoints, 'fsck', '--connectivity-only', '--no-dangling', head),
            `room for ${pages} pages`,
          ).toBe('');
          free();
          if (!taken.ok) {
            const after = await checkpoints.take();
            if (!after.ok)
              throw new Error(`room for ${pages} pages: the checkpoint after space was freed failed: ${after.reason}`);
            expect(inCheckpoints(checkpoints, 'rev-parse', `${after.id}^1`).trim()).toBe(head);
            expect(fileInCheckpoint(checkpoints.directory, after.id, `file-${pages % 3}.txt`)).toBe(content);
            head = after.id;
          }
        }
        // Both ends were reached: the disk refused some, and had room for others.
        expect(seen.failed).toBeGreaterThan(0);
        expect(seen.taken).toBeGreaterThan(0);
        expect(readdirSync(checkpoints.directory).filter((n) => /lock|tole-index|tmp/.test(n))).toEqual([]);
      } finally {
        checkpoints.close();
      }
    },
  );
});
