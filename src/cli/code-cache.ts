/**
 * tole's compile cache: V8's compiled code for the scripts of its build (the full-screen session's,
 * its later libraries', `tole -p`'s), kept under the user's cache folder ($XDG_CACHE_HOME/tole,
 * else ~/.cache/tole), never in the workspace. Node 20 keeps no compile cache of its own, and
 * compiling the script is a large part of a start.
 *
 * A cache file is a one-line JSON header and V8's bytes. It is used only for the very source
 * (its size and CRC-32), tole version, Node, V8 and CPU it was made with, and only when its bytes
 * have the length and CRC-32 the header says; anything else (another build, a file cut short or
 * damaged, one that is not a cache at all, one another user owns or others may write, one in a
 * folder another user owns or others may write in) reads as no cache, and a fresh one replaces it
 * (never in such a folder). V8 checks the bytes it is given once more, and compiles from
 * source when it rejects them.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, type Stats, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { readRegularFile } from '../core/regular-file';

/** What cached code is valid for. */
interface CodeCacheKey {
  readonly tole: string;
  readonly node: string;
  readonly v8: string;
  readonly arch: string;
  readonly sourceBytes: number;
  readonly sourceCrc: number;
}

const FORMAT = 'tole-code-cache/1';
const KEY_FIELDS = ['tole', 'node', 'v8', 'arch', 'sourceBytes', 'sourceCrc'] as const;
/** Caches of other builds of the same script kept beside the newest one. */
const KEEP_OTHER_BUILDS = 3;
/** A header is a short line; a file whose first line is longer is not a cache. */
const MAX_HEADER_BYTES = 4096;

export function codeCacheKey(source: Buffer, toleVersion: string): CodeCacheKey {
  return {
    tole: toleVersion,
    node: process.version,
    v8: process.versions.v8,
    arch: process.arch,
    sourceBytes: source.length,
    sourceCrc: crc32(source),
  };
}

/** The folder of tole's caches: $XDG_CACHE_HOME/tole, else ~/.cache/tole. */
export function codeCacheDir(env: NodeJS.ProcessEnv): string {
  const base = env['XDG_CACHE_HOME'] || join(env['HOME'] || homedir(), '.cache');
  return join(base, 'tole');
}

/** The cache file of the script `name` with this key: one per build, so that builds side by side keep theirs. */
export function codeCacheFile(dir: string, name: string, key: CodeCacheKey): string {
  return join(dir, `${name}-${key.sourceCrc.toString(16).padStart(8, '0')}.v8cache`);
}

/** The cached code at `file` for `key`, or null when there is none, it is for something else, or it is damaged. */
export function readCodeCache(file: string, key: CodeCacheKey): Buffer | null {
  let bytes: Buffer;
  try {
    // V8 runs what a cache holds: one someone else could have written or changed is not used, nor
    // one in a folder someone else could put another file in. The file checked is the one read.
    if (!ownFolder(dirname(file))) return null;
    // Not blocking: a FIFO where the cache would be is opened, found not a file, and left.
    bytes = readRegularFile(file, ownedAndWritableByOwnerOnly);
  } catch {
    return null;
  }
  const end = bytes.subarray(0, MAX_HEADER_BYTES).indexOf(10);
  if (end < 0) return null;
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(bytes.subarray(0, end).toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (header === null || typeof header !== 'object' || header['format'] !== FORMAT) return null;
  if (KEY_FIELDS.some((field) => header[field] !== key[field])) return null;
  const data = bytes.subarray(end + 1);
  if (data.length === 0 || header['dataBytes'] !== data.length || header['dataCrc'] !== crc32(data)) return null;
  return data;
}

/** The user's own, and only the user may change it. */
function ownedAndWritableByOwnerOnly(stat: Stats): boolean {
  return (stat.mode & 0o022) === 0 && (!process.getuid || stat.uid === process.getuid());
}

/** A folder of the user's that no one else may write in. */
function ownFolder(dir: string): boolean {
  try {
    const stat = statSync(dir);
    return stat.isDirectory() && ownedAndWritableByOwnerOnly(stat);
  } catch {
    return false;
  }
}

/**
 * Writes the cache whole (a temporary file renamed over the old one, so a reader never sees half
 * of one) and removes this script's caches of all but the three most recent other builds. A cache that cannot be written (no
 * home, a read-only disk) is no error: tole compiles from source next time too. True when written.
 */
export function writeCodeCache(file: string, key: CodeCacheKey, data: Buffer): boolean {
  const dir = dirname(file);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A folder another user owns or may write in is not the user's cache: nothing is left in it.
    if (!ownFolder(dir)) return false;
    const header = JSON.stringify({ format: FORMAT, ...key, dataBytes: data.length, dataCrc: crc32(data) });
    writeFileSync(temporary, Buffer.concat([Buffer.from(`${header}\n`), data]), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Its folder is not there, or not a folder: there is no temporary file either.
    }
    return false;
  }
  const prefix = basename(file).replace(/-[0-9a-f]{8}\.v8cache$/, '-');
  try {
    // The newest few builds keep theirs (two checkouts of tole used in turn do not evict each other's).
    const others = readdirSync(dir)
      // This script's only: `screen-` and a crc, not the caches of a script named `screen-<more>`.
      .filter(
        (name) =>
          name !== basename(file) &&
          name.startsWith(prefix) &&
          /^[0-9a-f]{8}\.v8cache$/.test(name.slice(prefix.length)),
      )
      .map((name) => ({ path: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const old of others.slice(KEEP_OTHER_BUILDS)) rmSync(old.path, { force: true });
  } catch {
    // Old caches left behind cost only disk.
  }
  return true;
}
