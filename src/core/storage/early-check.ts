/**
 * The check of a large session file's lines begun before the code that opens it is loaded: the
 * command line names the file, so a worker can read it and check every line (verify-aside.ts)
 * while this thread compiles the session's code. The open adopts that check only when the file it
 * opened is the very file the check read (same device, inode, size, modification and change
 * times); otherwise the early check is called off and the open checks the file afresh.
 *
 * The check is handed over through a global symbol: the small entry that starts it and the
 * session's script that opens the file are separate bundles, each with its own copy of this module.
 */
import { type BigIntStats, closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { ASIDE_MAX_BYTES, ASIDE_MIN_BYTES } from './aside-bounds';
import { coveredBytesHint, HINT_BYTES, indexPathOf } from './session-index';
import { AsideCheck } from './verify-aside';

/** Files this large or larger are checked early: the size at which an open checks in a worker. */
export const EARLY_MIN_BYTES = ASIDE_MIN_BYTES;
/** The header is looked for in this many bytes; the worker reads the rest. */
const HEAD_BYTES = 64 * 1024;
/** An early check no open has taken by then is dropped (an open after it checks afresh). */
const DROP_AFTER_MS = 20_000;

const KEY = Symbol.for('tole.storage.earlyCheck');

/** A check begun early, with the descriptor its worker reads from (this process keeps it open). */
interface EarlyCheck {
  readonly bytes: Buffer;
  readonly check: AsideCheck;
  /** Bytes read by this thread (the header's line is among them); the worker reads the rest. */
  readonly headBytes: number;
  /** Ends the check (if it still runs) and closes its descriptor. */
  release(): void;
}

interface Held extends EarlyCheck {
  readonly stat: BigIntStats;
}

type Holder = { [KEY]?: Held };

/**
 * Begins the check of the session file at `path` when it is large enough and has a header line;
 * returns it (also held for `takeEarlyCheck`), or null when nothing was begun. Never throws.
 */
export function startEarlyCheck(path: string, minBytes = EARLY_MIN_BYTES): EarlyCheck | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const stat = fstatSync(fd, { bigint: true });
    const size = Number(stat.size);
    if (!stat.isFile() || size < minBytes || size > ASIDE_MAX_BYTES || size === 0) throw new Error('not checked early');
    const bytes = Buffer.from(new SharedArrayBuffer(size));
    const headBytes = readSync(fd, bytes, 0, Math.min(HEAD_BYTES, size), 0);
    const headerEnd = bytes.subarray(0, headBytes).indexOf(0x0a);
    if (headerEnd === -1 || bytes[0] !== 0x7b) throw new Error('no JSONL header line in the first bytes');
    const check = new AsideCheck(bytes, { fd, from: headBytes });
    // The seed is the header line's CRC (line-codec.ts headerCrc), as the open computes it.
    const seed = crc32(bytes.subarray(0, headerEnd));
    // The saved index's bound, unchecked: the open keeps the JSON skipped before it only if it
    // earns that very index (verify-aside.ts `settle`), and has it checked again otherwise.
    const hint = indexHint(path, seed, size);
    if (hint > 0) check.trust(hint);
    check.begin(headerEnd + 1, size, seed);
    const held = fd;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      check.stop();
      try {
        closeSync(held);
      } catch {}
    };
    dropEarlyCheck();
    const early: Held = { bytes, check, headBytes, release, stat };
    (globalThis as Holder)[KEY] = early;
    setTimeout(() => {
      if ((globalThis as Holder)[KEY] === early) dropEarlyCheck();
    }, DROP_AFTER_MS).unref();
    return early;
  } catch {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {}
    }
    return null;
  }
}

/** The bytes the saved index beside `path` says it covers (coveredBytesHint), or 0. Never throws. */
function indexHint(path: string, headerCrc: number, size: number): number {
  let fd: number | null = null;
  try {
    // Not a FIFO or a device: opening or reading those could block (and never blocking on open).
    const indexPath = indexPathOf(path);
    if (statSync(indexPath, { throwIfNoEntry: false })?.isFile() !== true) return 0;
    fd = openSync(indexPath, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return 0;
    const head = Buffer.alloc(HINT_BYTES);
    const got = readSync(fd, head, 0, HINT_BYTES, 0);
    const covered = coveredBytesHint(head.subarray(0, got), headerCrc);
    return covered <= size ? covered : 0;
  } catch {
    return 0;
  } finally {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {}
    }
  }
}

/**
 * The early check, taken (no one else gets it), when it read the file open at `fd`: same device,
 * inode, size, modification and change times. Otherwise the early check is released and null
 * returned, and the caller checks the file itself.
 */
export function takeEarlyCheck(fd: number): EarlyCheck | null {
  const early = (globalThis as Holder)[KEY];
  if (early === undefined) return null;
  delete (globalThis as Holder)[KEY];
  try {
    const now = fstatSync(fd, { bigint: true });
    const was = early.stat;
    if (
      now.dev === was.dev &&
      now.ino === was.ino &&
      now.size === was.size &&
      now.mtimeNs === was.mtimeNs &&
      now.ctimeNs === was.ctimeNs
    )
      return early;
  } catch {}
  early.release();
  return null;
}

/** Ends the early check no one took, if there is one. */
export function dropEarlyCheck(): void {
  const early = (globalThis as Holder)[KEY];
  if (early === undefined) return;
  delete (globalThis as Holder)[KEY];
  early.release();
}
