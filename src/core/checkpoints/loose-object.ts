import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, rmSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fsyncDirectory, nodeFileOps, writeWhole } from '../storage/file-ops';
import { deflateSync } from 'node:zlib';

/**
 * Writes an object into a git directory as a loose object, as `git hash-object -w` does: the
 * object's header and bytes, hashed for its id, deflated into `objects/<2>/<rest>`, written under
 * a temporary name beside it (`tmp_obj_…`, git's own prefix, which git's prune removes when a
 * crash leaves one) and linked into place, so that no reader ever sees half an object. An object
 * that is already there is kept, its time freshened as git freshens it.
 *
 * tole writes its checkpoint commits so (piped-ref.ts) instead of through a git: the commit is a
 * few lines tole already holds, and a git for it cost a process start. The id's hash is the one
 * the ids it is given use (SHA-1 for 40 hex digits, SHA-256 for 64): the directory's own.
 *
 * The object is durable when this returns, as the gits' objects are (core.fsync, git-command.ts):
 * its bytes are fsynced before the link, and its folder (and, when the folder is new, `objects`)
 * after it, so that a session that names the checkpoint next never names one a power loss took.
 */
export function writeLooseObject(gitDir: string, type: 'commit', body: string, idLength: number): string {
  const bytes = Buffer.from(body, 'utf8');
  const whole = Buffer.concat([Buffer.from(`${type} ${bytes.length}\0`, 'latin1'), bytes]);
  const id = createHash(HASHES[idLength] ?? unknownHash(idLength))
    .update(whole)
    .digest('hex');
  const folder = join(gitDir, 'objects', id.slice(0, 2));
  const file = join(folder, id.slice(2));
  try {
    const now = new Date();
    utimesSync(file, now, now);
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const madeFolder = mkdirSync(folder, { recursive: true }) !== undefined;
  const temp = join(folder, `tmp_obj_tole_${process.pid}_${++written}`);
  try {
    // At git's loose compression (core.looseCompression's default, the fastest).
    writeDurably(temp, deflateSync(whole, { level: 1 }));
    linkOnce(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
  fsyncFolder(folder);
  if (madeFolder) fsyncFolder(join(gitDir, 'objects'));
  return id;
}

/** Makes the name of the loose ref `ref` (`refs/tole/checkpoints`) durable; a ref git keeps packed has no folder of its own to sync. */
export function syncRefFolder(gitDir: string, ref: string): void {
  try {
    fsyncFolder(dirname(join(gitDir, ref)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Creates `path` (read-only, as git's objects and packs are) holding `bytes`, fsynced before it is closed. */
export function writeDurably(path: string, bytes: Buffer): void {
  const fd = openSync(path, 'wx', 0o444);
  try {
    writeWhole(nodeFileOps, fd, bytes, 0);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes the names in folder `dir` durable: the session store's own directory fsync. */
const fsyncFolder = (dir: string): void => fsyncDirectory(nodeFileOps, dir);

/** Links `temp` at `file`; another writer that linked the same object first wrote the same bytes. */
function linkOnce(temp: string, file: string): void {
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** The hash of a directory whose object ids have this many hex digits. */
const HASHES: Readonly<Record<number, string>> = { 40: 'sha1', 64: 'sha256' };

function unknownHash(idLength: number): never {
  throw new Error(`no git object hash has ids of ${idLength} hex digits`);
}

/** Objects written by this process, for their temporary names. */
let written = 0;
