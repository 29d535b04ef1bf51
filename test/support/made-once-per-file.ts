/**
 * A directory a test file's tests all start from (a repository git made, say), made once per file
 * and copied for each test instead of made again: a copy runs no process, and each git, tar or zip
 * started from a test fork costs a fork of that large process (bench/RESULTS.md, "Where the whole
 * run's time goes"). The made directory lives in the file's own TMPDIR (tmpdir-per-file.ts), which
 * goes when the file ends; where TMPDIR is not such a directory (the screen tier), it is made for
 * the caller each time, as before.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { FILE_TMPDIR_PREFIX } from './tmpdir-per-file-name';

const made = new Map<string, string>();

/**
 * Fills `to` (made if missing; if there, it must be empty) with what `make` puts in an empty
 * directory, `make` running once per file for each `key`. What `make` does must depend on nothing
 * but `key`.
 */
export function copyOfMadeOnce(key: string, make: (dir: string) => void, to: string): void {
  const fileDir = tmpdir();
  if (!basename(fileDir).startsWith(FILE_TMPDIR_PREFIX)) {
    mkdirSync(to, { recursive: true });
    make(to);
    return;
  }
  const id = `${fileDir}\0${key}`;
  let dir = made.get(id);
  if (dir === undefined || !existsSync(dir)) {
    dir = madeIn(realpathSync(mkdtempSync(join(fileDir, 'tole-made-once-'))), make);
    made.set(id, dir);
  }
  cpSync(dir, to, { recursive: true, verbatimSymlinks: true });
}

function madeIn(dir: string, make: (dir: string) => void): string {
  make(dir);
  return dir;
}
