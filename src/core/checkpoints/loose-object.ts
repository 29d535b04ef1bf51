import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  mkdirSync(folder, { recursive: true });
  const temp = join(folder, `tmp_obj_tole_${process.pid}_${++written}`);
  try {
    // At git's loose compression (core.looseCompression's default, the fastest).
    writeFileSync(temp, deflateSync(whole, { level: 1 }), { mode: 0o444 });
    linkOnce(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
  return id;
}

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
