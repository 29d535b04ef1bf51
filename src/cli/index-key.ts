import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexKey } from '../core/storage/session-index';

const KEY_BYTES = 32;
const keys = new Map<string, Buffer>();

/** Where the key that vouches for this user's saved indexes lives: outside the sessions folder. */
export function indexKeyPath(home: string): string {
  return join(home, 'index.key');
}

/**
 * The key for the saved index's MAC under tole's `home`, read once per process: 32 random bytes
 * in `index.key`, made on first need (exclusive create, mode 0600, synced with its directory).
 * A key file of another size throws, saying what to do; the open then goes on without an index.
 */
export function indexKeyIn(home: string): IndexKey {
  return () => {
    const known = keys.get(home);
    if (known) return known;
    const path = indexKeyPath(home);
    let key: Buffer;
    try {
      key = readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      key = makeKey(home, path);
    }
    if (key.length !== KEY_BYTES) {
      throw new Error(
        `${path} holds ${key.length} bytes, not a key of ${KEY_BYTES}: remove it and tole makes a new one (saved indexes are then replayed once)`,
      );
    }
    keys.set(home, key);
    return key;
  };
}

function makeKey(home: string, path: string): Buffer {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    // Another tole made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path);
    throw error;
  }
  try {
    let written = 0;
    while (written < key.length) written += writeSync(fd, key, written, key.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const dir = openSync(home, 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  return key;
}
