/**
 * A small tmpfs mounted at a folder of the test's own temp directory, to fill for real: a full
 * disk as the kernel says it (ENOSPC at a write, a short write, a failed create), not an
 * injected one. Root only; where mounting is not allowed, `skipped` says why and the caller skips.
 * `unmount` (from the caller's afterAll) detaches it lazily when a failed case still holds a file
 * there open.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface SmallTmpfs {
  readonly path: string;
  /** Why no tmpfs was mounted (not root, mount refused), or null when it is there. */
  readonly skipped: string | null;
  /** Fills what is left of it with one file and returns a function that frees that space. */
  fill(name: string): () => void;
  unmount(): void;
}

export function smallTmpfs(parent: string, size = '512k', name = 'mnt'): SmallTmpfs {
  const path = join(parent, name);
  mkdirSync(path);
  const skipped = (() => {
    if (process.getuid?.() !== 0) return 'not root';
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', path], { stdio: 'pipe' });
      return null;
    } catch (error) {
      return `mount refused: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`;
    }
  })();
  return {
    path,
    skipped,
    fill(fileName) {
      const file = join(path, fileName);
      const fd = openSync(file, 'w');
      const chunk = Buffer.alloc(4096, 0x2e);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
      // The last blocks: a 4 KiB chunk may not fit where a few bytes still do.
      const fd2 = openSync(file, 'a');
      try {
        for (;;) writeSync(fd2, Buffer.alloc(1, 0x2e));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd2);
      }
      return () => rmSync(file, { force: true });
    },
    unmount() {
      if (skipped !== null) return;
      try {
        execFileSync('umount', [path], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', path], { stdio: 'pipe' });
      }
    },
  };
}
