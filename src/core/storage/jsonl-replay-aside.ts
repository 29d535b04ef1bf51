/**
 * Replaying a large JSONL session on two threads: this one reads the commits (finding where each
 * string ends without checking its bytes) and applies them, while a worker checks every line's
 * frame, chained CRC and strict JSON (verify-aside.ts; the JSON of lines a saved index covers only
 * when the open does not earn the index). The replay returns only once the check has passed, so
 * nothing is written or acknowledged on a file that was not checked whole.
 *
 * Anything out of the ordinary (a line the check refuses, a bad or unterminated line, a commit the
 * sink refuses, an I/O error) sends the open back to the one-thread replay from the start, after
 * `onRestart` has dropped what was applied: a torn tail is then cut and a corrupt line named
 * exactly as that replay always did.
 */
import { ASIDE_MAX_BYTES, ASIDE_MIN_BYTES } from './aside-bounds';
import { takeEarlyCheck } from './early-check';
import { type FileOps, nodeFileOps } from './file-ops';
import { decodeCommitBody, NOT_JSON } from './lazy-commit';
import { scanColumns } from './column-scan';
import { frameCrc, headerCrc, LINE_PREFIX_BYTES } from './line-codec';
import { parseHeader, replayJsonl, type ScanResult } from './jsonl-replay';
import { nameFile } from './replayed-entry';
import type { SavedIndex } from './session-index';
import type { CommitSink } from './storage';
import { AsideCheck } from './verify-aside';

/**
 * A saved index of the file's first lines (session-index.ts) and how to take its state in:
 * `apply` returns false, having taken nothing, when the state is not one it can use.
 */
export interface ResumeFrom {
  readonly index: SavedIndex;
  apply(state: unknown, file: Buffer, mark: SavedIndex): boolean;
}

/** What the replay of a large file adds to ScanResult. */
export interface AsideResult extends ScanResult {
  /** The whole file, as read (entries' payloads are ranges of it); absent after a one-thread replay. */
  readonly file?: Buffer;
  /** Bytes of the file taken from the saved index instead of replayed (0: none). */
  readonly indexedBytes?: number;
  /** True when the check begun before the open (early-check.ts) was the one that passed the file. */
  readonly earlyCheck?: boolean;
}

const NEWLINE = 0x0a;
/** What this thread reads itself while the worker starts; the worker reads the rest. */
const HEAD_READ_BYTES = 4 * 1024 * 1024;

/**
 * Replays `fd` like `replayJsonl`, checking its lines in a worker when the file is large (or on
 * this thread alone, `worker` false: see AsideCheck).
 */
export function replayJsonlAside(
  ops: FileOps,
  fd: number,
  path: string,
  onCommit: CommitSink,
  onRestart: () => void,
  minBytes = ASIDE_MIN_BYTES,
  headReadBytes = HEAD_READ_BYTES,
  resume: ResumeFrom | null = null,
  worker = true,
  takeScanned: ResumeFrom['apply'] | null = null,
): AsideResult {
  const totalBytes = ops.fstatSize(fd);
  if (totalBytes < minBytes || totalBytes > ASIDE_MAX_BYTES) return replayJsonl(ops, fd, path, onCommit);
  // A check begun before the open (early-check.ts) is taken when it read this very file.
  const early = ops === nodeFileOps ? takeEarlyCheck(fd) : null;
  let bytes: Buffer;
  try {
    bytes = early?.bytes ?? Buffer.from(new SharedArrayBuffer(totalBytes));
  } catch {
    return replayJsonl(ops, fd, path, onCommit);
  }
  // A payload read later names this file if it is not JSON (replayed-entry.ts).
  nameFile(bytes, path);
  // With the real file system the worker reads the file past its first piece while this thread
  // replays what came before; otherwise (injected file operations, no worker asked for) this
  // thread reads it all. A check begun early has its own worker reading, whatever was asked: the
  // bytes past its head are not here until it says so.
  const workerReads = early !== null || (worker && ops === nodeFileOps);
  const headBytes = early?.headBytes ?? (workerReads ? Math.min(headReadBytes, totalBytes) : totalBytes);
  const check = early?.check ?? new AsideCheck(bytes, workerReads ? { fd, from: headBytes } : undefined, { worker });
  let applied = false;
  try {
    if (early !== null || readRange(ops, fd, bytes, headBytes) === headBytes) {
      if (!workerReads) check.haveRead();
      applied = true;
      const result = replayTrusted(bytes, path, onCommit, check, resume, onRestart, takeScanned);
      if (result !== null && check.answer() === -1) return { ...result, earlyCheck: early !== null };
    }
  } catch {
    // The one-thread replay below meets the same problem and reports it as it always has.
  } finally {
    check.stop();
    early?.release();
  }
  if (applied) onRestart();
  return replayJsonl(ops, fd, path, onCommit);
}

/** Applies every line of `bytes`, or returns null at the first that is not a whole, framed commit. */
function replayTrusted(
  bytes: Buffer,
  path: string,
  onCommit: CommitSink,
  check: AsideCheck,
  resume: ResumeFrom | null,
  onRestart: () => void,
  takeScanned: ResumeFrom['apply'] | null,
): AsideResult | null {
  let have = check.readable(1);
  if (have < 0) return null;
  // Newlines are searched only in what has been read: the rest of the buffer is being written.
  let read = bytes.subarray(0, have);
  const newlineFrom = (start: number): number => {
    for (;;) {
      const at = read.indexOf(NEWLINE, start);
      if (at !== -1 || have === bytes.length) return at;
      have = check.readable(have + 1);
      if (have < 0) return -1;
      read = bytes.subarray(0, have);
    }
  };
  const headerEnd = newlineFrom(0);
  if (headerEnd === -1) return null;
  const headerLine = bytes.subarray(0, headerEnd);
  const header = parseHeader(headerLine, path);
  const indexUsable = resume !== null && usableIndex(bytes, headerLine, resume.index);
  // The lines the index covers may be checked without their JSON, if the open earns them below.
  if (indexUsable) check.trust(resume.index.bytes);
  check.begin(headerEnd + 1, bytes.length, headerCrc(headerLine));
  let lastCrc = 0;
  let lineNo = 1;
  let start = headerEnd + 1;
  if (resume !== null && indexUsable) {
    // The state is taken in while the worker still reads; then the index's last line is looked at.
    let applied = false;
    try {
      applied = resume.apply(resume.index.state, bytes, resume.index);
    } catch {
      applied = false;
    }
    if (applied && indexEndsOnItsLine(bytes, headerLine, resume.index, check)) {
      start = resume.index.bytes;
      lineNo += resume.index.commitLines;
      lastCrc = resume.index.lastCrc;
    } else onRestart();
  }
  const indexedBytes = start === headerEnd + 1 ? 0 : start;
  // Earned: the index's own CRC held, it names this header, and the line ending at its byte N
  // carries the CRC it recorded; the check still checks every line's frame and CRC chain, so the
  // bytes before N are those a writable open checked in full when it wrote the index.
  check.settle(indexedBytes);
  if (indexedBytes === 0 && takeScanned !== null) {
    // No saved index: the lines written the way tole writes them are read into columns, and the
    // store takes them in as it takes an index (column-scan.ts). Their JSON is still checked
    // whole by the worker (nothing was trusted above) before the open keeps anything.
    const scanned = scanColumns(bytes, start, headerCrc(headerLine), newlineFrom);
    if (scanned !== null) {
      let taken = false;
      try {
        taken = takeScanned(scanned.state, bytes, scanned);
      } catch {
        taken = false;
      }
      if (taken) {
        start = scanned.bytes;
        lineNo += scanned.commitLines;
        lastCrc = scanned.lastCrc;
      } else onRestart();
    }
  }
  while (start < bytes.length) {
    const end = newlineFrom(start);
    if (end === -1) return null;
    const stored = frameCrc(bytes, start, end);
    if (stored < 0) return null;
    const commit = decodeCommitBody(bytes, start + LINE_PREFIX_BYTES, end - 1, true);
    if (commit === NOT_JSON) return null;
    onCommit(commit, ++lineNo, end - start + 1);
    lastCrc = stored;
    start = end + 1;
  }
  if (lineNo === 1) lastCrc = headerCrc(headerLine);
  return {
    header,
    commitLines: lineNo - 1,
    goodBytes: bytes.length,
    lastCrc,
    tornTail: null,
    file: bytes,
    indexedBytes,
  };
}

/** The index names this header and a prefix the file is long enough to hold. */
function usableIndex(bytes: Buffer, headerLine: Buffer, index: SavedIndex): boolean {
  return (
    index.headerCrc === headerCrc(headerLine) &&
    index.commitLines >= 1 &&
    index.bytes > headerLine.length + 1 &&
    index.bytes <= bytes.length
  );
}

/** The index's prefix ends with a whole line that carries the CRC the index recorded. */
function indexEndsOnItsLine(bytes: Buffer, headerLine: Buffer, index: SavedIndex, check: AsideCheck): boolean {
  if (check.readable(index.bytes) < index.bytes || bytes[index.bytes - 1] !== NEWLINE) return false;
  const lineStart = bytes.lastIndexOf(NEWLINE, index.bytes - 2) + 1;
  if (lineStart <= headerLine.length) return false;
  return frameCrc(bytes, lineStart, index.bytes - 1) === index.lastCrc;
}

/** Reads the first `length` bytes of the file into `bytes`; returns how many came. */
function readRange(ops: FileOps, fd: number, bytes: Buffer, length: number): number {
  let got = 0;
  while (got < length) {
    const n = ops.readSync(fd, bytes, got, length - got, got);
    if (n === 0) break;
    got += n;
  }
  return got;
}
