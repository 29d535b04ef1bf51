/**
 * Checking a session file's commit lines in a worker thread while the main thread replays them:
 * each line whole (ends in a newline), framed, its CRC chained from the CRC stored on the line
 * before it (the header's for the first), and its commit strict JSON. Chaining from the stored
 * CRC checks the same chain as the one-thread replay does (a line passes there exactly when its
 * own CRC and every earlier one pass), so the lines split across threads without a CRC combine.
 *
 * The worker runs `firstBadLine` and `jsonSkipper` from their source text (an eval worker: the
 * bundle has no separate file for it), so both refer to nothing outside themselves. When the
 * worker cannot start, the same function runs on the calling thread: never less checking.
 *
 * Lines a saved index covers (session-index.ts) may be checked for frame and CRC chain only: the
 * index is written only after a writable open checked those bytes in full (JSON included), and
 * the open uses it only when its own CRC holds, it names this header, and the line ending at its
 * byte N carries the CRC it recorded. The CRC is chained (each line's stored CRC covers its body
 * seeded by the CRC stored on the line before), so a chain that holds from the header to that line
 * means the bytes before N are the bytes checked then (up to a CRC collision; whoever can write the
 * session's folder can write a forged index as well). Such bounds are only offered (`trust`) while
 * the check runs; the open then says what it earned (`settle`), and a piece that skipped the JSON
 * of a line it did not earn is checked again in full before the answer is given.
 */
import { Worker } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { type JsonSkipper, jsonSkipper } from './json-skip';

/**
 * The index (from 0) of the first bad line among the lines of `bytes[from, end)`, or -1 when
 * every line is good. `seed` is the CRC the first line chains from; a line that ends before
 * `trustedEnd` is checked for frame and CRC only (see above).
 */
export function firstBadLine(
  bytes: Buffer,
  from: number,
  end: number,
  seed: number,
  crc: (data: Buffer, value: number) => number,
  skipper: JsonSkipper,
  trustedEnd = 0,
): number {
  const answer = checkLines(bytes, from, end, end, seed, crc, skipper, trustedEnd);
  return answer < 0 ? -1 : answer;
}

/**
 * Checks the lines that start in `bytes[from, limit)` (`from` a line's start) and end by `end`:
 * the index (from 0) of the first bad one, or, when all are good, -1 - how many there were. Every
 * line's frame and chained CRC are checked; its commit's strict JSON only when its newline is at
 * or after `trustedEnd` (0: every line's).
 */
function checkLines(
  bytes: Buffer,
  from: number,
  limit: number,
  end: number,
  seed: number,
  crc: (data: Buffer, value: number) => number,
  skipper: JsonSkipper,
  trustedEnd = 0,
): number {
  const PREFIX_BYTES = 20;
  // MAX_LINE_BYTES of jsonl-replay.ts (prefix, a commit of 16 MiB, `}`), spelled out: this
  // function runs from its source text in the worker and refers to nothing outside itself.
  const LONGEST_LINE = PREFIX_BYTES + 16 * 1024 * 1024 + 1;
  const HEAD = [0x7b, 0x22, 0x63, 0x22, 0x3a, 0x22]; // {"c":"
  const TAIL = [0x22, 0x2c, 0x22, 0x72, 0x22, 0x3a]; // ","r":
  let previous = seed;
  let index = 0;
  for (let start = from; start < limit; start++, index++) {
    const newline = bytes.indexOf(0x0a, start);
    if (newline === -1 || newline >= end) return index;
    if (newline - start < PREFIX_BYTES + 2 || newline - start > LONGEST_LINE || bytes[newline - 1] !== 0x7d)
      return index;
    for (let k = 0; k < 6; k++) {
      if (bytes[start + k] !== HEAD[k] || bytes[start + 14 + k] !== TAIL[k]) return index;
    }
    let stored = 0;
    for (let k = 6; k < 14; k++) {
      const c = bytes[start + k]!;
      const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
      if (digit < 0) return index;
      stored = stored * 16 + digit;
    }
    const bodyEnd = newline - 1;
    if (crc(bytes.subarray(start + PREFIX_BYTES, bodyEnd), previous) !== stored) return index;
    if (newline >= trustedEnd) {
      let at = skipper.skipSpace(bytes, start + PREFIX_BYTES, bodyEnd);
      at = skipper.skipValue(bytes, at, bodyEnd);
      if (at < 0 || skipper.skipSpace(bytes, at, bodyEnd) !== bodyEnd) return index;
    }
    previous = stored;
    start = newline;
  }
  return -1 - index;
}

/**
 * Checks the lines that start in piece `piece` of the check (pieces of `pieceBytes` from `from`)
 * and records the answer in `state` (see the cells below): a line is checked by the piece it
 * starts in, chained from the CRC stored on the line before it (the seed for the first line).
 * A bad frame on that line before is found by its own piece, and an earlier line wins. The JSON
 * of lines ending before the trusted bound in force when the piece starts is not checked; the
 * piece's second cell then holds minus that bound (else 1), so the answer can tell.
 */
function checkPiece(
  state: Int32Array,
  piece: number,
  bytes: Buffer,
  crc: (data: Buffer, value: number) => number,
  skipper: JsonSkipper,
): void {
  const from = state[3]!;
  const end = state[4]!;
  const pieceBytes = state[7]!;
  const begin = from + piece * pieceBytes;
  const limit = Math.min(end, begin + pieceBytes);
  let start = begin;
  let seed = state[5]! >>> 0;
  if (begin > from) {
    start = bytes.indexOf(0x0a, begin - 1) + 1;
    if (start === 0) start = end;
    const before = bytes.lastIndexOf(0x0a, start - 2) + 1;
    if (before >= from) {
      seed = 0;
      for (let k = before + 6; k < before + 14 && k < start; k++) {
        const c = bytes[k]!;
        const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : 0;
        seed = seed * 16 + digit;
      }
    }
  }
  const trusted = Atomics.load(state, 11);
  const answer = start >= limit ? -1 : checkLines(bytes, start, limit, end, seed, crc, skipper, trusted);
  state[16 + piece * 2] = answer;
  Atomics.store(state, 16 + piece * 2 + 1, trusted > start && start < limit ? -trusted : 1);
  Atomics.add(state, 9, 1);
  Atomics.notify(state, 9);
}

/** State shared with the worker, as Int32 cells (checkPiece uses FROM, END, SEED, PIECE_BYTES, DONE, TRUSTED and the piece cells by number). */
const DATA = 0; // 0: being read, 1: ready, 2: called off
const PHASE = 1; // 0: not started, 1: checking, 2: done
const ANSWER = 2; // WORKER_FAILED once the worker failed
const FROM = 3;
const END = 4;
const SEED = 5;
const READ = 6; // bytes of the file in `bytes` so far, or READ_FAILED
const PIECE_BYTES = 7;
const NEXT = 8; // the next piece to take
const DONE = 9; // pieces checked
const PIECES = 10;
/** Lines ending before this byte have their JSON left unchecked (0: none); see `trust`. */
const TRUSTED = 11;
/** Then two cells a piece: its checkLines answer, and once it is in, 1 or minus the trusted bound it used. */
const PIECE_CELLS = 16;
const WORKER_FAILED = -2;
const READ_FAILED = -1;
/** The worker reads the file in pieces this size, telling after each how far it got. */
const READ_PIECE_BYTES = 4 * 1024 * 1024;
/** The lines are checked in pieces of about this many bytes, each taken by whichever thread is free. */
const CHECK_PIECE_BYTES = 2 * 1024 * 1024;
/** Pieces at most (larger files have larger pieces). */
const MAX_PIECES = 512;
/** How long to wait for a worker that has not begun when its answer is wanted. */
const START_WAIT_MS = 3000;
/** How long a begun check may take before it is done here instead. */
const CHECK_WAIT_MS = 120_000;

// A compiler that keeps function names (tsx does) calls __name inside the functions' text.
const WORKER_SOURCE = `'use strict';
const __name = (target) => target;
const { workerData } = require('node:worker_threads');
const { crc32 } = require('node:zlib');
const jsonSkipper = ${jsonSkipper.toString()};
const checkLines = ${checkLines.toString()};
const checkPiece = ${checkPiece.toString()};
const state = new Int32Array(workerData.state);
Atomics.store(state, ${PHASE}, 1);
Atomics.notify(state, ${PHASE});
if (workerData.fd !== undefined) {
  const { readSync } = require('node:fs');
  const bytes = Buffer.from(workerData.bytes);
  let got = Atomics.load(state, ${READ});
  try {
    while (got < bytes.length) {
      const n = readSync(workerData.fd, bytes, got, Math.min(${READ_PIECE_BYTES}, bytes.length - got), got);
      if (n === 0) break;
      got += n;
      Atomics.store(state, ${READ}, got);
      Atomics.notify(state, ${READ});
    }
  } catch {}
  if (got < bytes.length) {
    Atomics.store(state, ${READ}, ${READ_FAILED});
    Atomics.notify(state, ${READ});
  }
}
while (Atomics.load(state, ${DATA}) === 0) Atomics.wait(state, ${DATA}, 0);
if (Atomics.load(state, ${DATA}) === 1) {
  try {
    const bytes = Buffer.from(workerData.bytes);
    const skipper = jsonSkipper(false);
    for (let piece = Atomics.add(state, ${NEXT}, 1); piece < state[${PIECES}]; piece = Atomics.add(state, ${NEXT}, 1)) {
      if (Atomics.load(state, ${DATA}) !== 1) break;
      checkPiece(state, piece, bytes, crc32, skipper);
    }
  } catch {
    Atomics.store(state, ${ANSWER}, ${WORKER_FAILED});
  }
}
Atomics.store(state, ${PHASE}, 2);
Atomics.notify(state, ${PHASE});
Atomics.notify(state, ${DONE});
`;

/**
 * A check of the commit lines of `bytes` in a worker thread, started before the bytes are read.
 * The lines are checked in pieces; once this thread asks for the answer, it takes pieces too.
 */
export class AsideCheck {
  private readonly state = new Int32Array(new SharedArrayBuffer((PIECE_CELLS + 2 * MAX_PIECES) * 4));
  private worker: Worker | null = null;
  private from = 0;
  private end = 0;
  private seed = 0;
  private begun = false;
  /** What the open earned (`settle`): null until it said. */
  private earned: number | null = null;
  /** True when `bytes` is being filled (by the worker's read or the caller's): this thread may check pieces once it is. */
  private filled: boolean;
  /** Where the answer came from: the worker, this thread and the worker, or this thread alone when the worker did not answer. */
  answeredBy: 'worker' | 'both threads' | 'this thread' | null = null;

  /**
   * `read`: the worker reads the rest of the file from this descriptor (which this process keeps
   * open), from the offset given, while this thread works on what came before; else `bytes` is
   * filled by the caller, which says so with `haveRead`. `worker: false` starts none: this thread
   * checks every piece, as it does when a worker cannot start (a caller that opens thousands of
   * small files, the fault simulator, whose check costs less than a worker's start).
   */
  constructor(
    private readonly bytes: Buffer,
    read?: { readonly fd: number; readonly from: number },
    { worker = true }: { readonly worker?: boolean } = {},
  ) {
    this.state[READ] = read ? read.from : 0;
    this.filled = read !== undefined;
    if (!worker) {
      if (read) throw new Error('assert: a check without a worker has no worker to read the file');
      return;
    }
    try {
      this.worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { state: this.state.buffer, bytes: bytes.buffer, ...(read ? { fd: read.fd } : {}) },
        stdout: true,
        stderr: true,
      });
      this.worker.unref();
      // A worker that fails to start reports nothing: the check then runs on this thread.
      this.worker.on('error', () => {});
    } catch {
      this.worker = null;
    }
  }

  /** The caller has put the whole file in `bytes`. */
  haveRead(): void {
    this.filled = true;
    Atomics.store(this.state, READ, this.bytes.length);
  }

  /**
   * How many bytes of the file are in `bytes`, once at least `need` are (or all there are), or
   * -1 when the worker could not read them (or never started to).
   */
  readable(need: number): number {
    for (;;) {
      const got = Atomics.load(this.state, READ);
      if (got === READ_FAILED || got >= need || got === this.bytes.length) return got;
      const started = Atomics.load(this.state, PHASE) !== 0;
      if (Atomics.wait(this.state, READ, got, started ? CHECK_WAIT_MS : START_WAIT_MS) === 'timed-out') {
        if (Atomics.load(this.state, READ) === got) return READ_FAILED;
      }
    }
  }

  /** The lines in `bytes[from, end)` are read: check them, the first chained from `seed`. */
  begin(from: number, end: number, seed: number, piece = CHECK_PIECE_BYTES): void {
    // Begun already (a check started before the open, early-check.ts): the same lines go on.
    if (this.begun) {
      if (from === this.from && end === this.end && seed === this.seed) return;
      throw new Error('the check was begun on other lines');
    }
    this.begun = true;
    this.from = from;
    this.end = end;
    this.seed = seed;
    const pieceBytes = Math.max(1, piece, Math.ceil((end - from) / MAX_PIECES));
    this.state[FROM] = from;
    this.state[END] = end;
    this.state[SEED] = seed | 0;
    this.state[PIECE_BYTES] = pieceBytes;
    this.state[PIECES] = end > from ? Math.ceil((end - from) / pieceBytes) : 0;
    Atomics.store(this.state, DATA, 1);
    Atomics.notify(this.state, DATA);
  }

  /**
   * Offers `bytes` as the end of the lines a saved index covers: the pieces begun from now on
   * check those lines' frame and CRC chain but not their JSON. Only an offer: `settle` says what
   * the open earned, and a line whose JSON was skipped without being earned is checked again.
   */
  trust(bytes: number): void {
    if (this.earned !== null || !Number.isSafeInteger(bytes) || bytes < 0 || bytes > 0x7fffffff) return;
    Atomics.store(this.state, TRUSTED, bytes);
  }

  /**
   * The open earned the lines before `bytes` (0: none): it uses a saved index that covers them
   * (see the file's comment). A bound offered past it is withdrawn here; without this call no
   * skipped JSON is kept.
   */
  settle(bytes: number): void {
    if (this.earned !== null) return;
    this.earned = bytes;
    if (Atomics.load(this.state, TRUSTED) > bytes) Atomics.store(this.state, TRUSTED, 0);
  }

  /**
   * The index of the first bad line (firstBadLine's answer, JSON skipped only where earned): from
   * the pieces the worker and this thread checked, or from this thread alone when the worker did
   * not answer.
   */
  answer(): number {
    this.settle(0);
    const state = this.state;
    const pieces = state[PIECES]!;
    let helped = false;
    if (this.filled && this.readable(this.bytes.length) === this.bytes.length) {
      const skipper = jsonSkipper(false);
      for (let piece = Atomics.add(state, NEXT, 1); piece < pieces; piece = Atomics.add(state, NEXT, 1)) {
        helped = true;
        checkPiece(state, piece, this.bytes, crc32, skipper);
      }
    }
    if (this.worker !== null && Atomics.load(state, PHASE) === 0 && !helped)
      Atomics.wait(state, PHASE, 0, START_WAIT_MS);
    const waitUntil = Date.now() + CHECK_WAIT_MS;
    for (;;) {
      const done = Atomics.load(state, DONE);
      if (done >= pieces || Atomics.load(state, ANSWER) === WORKER_FAILED) break;
      // A worker that never began, or ended with a piece it took not in: this thread checks it all.
      if (this.worker === null || Atomics.load(state, PHASE) !== 1 || Date.now() > waitUntil) break;
      Atomics.wait(state, DONE, done, 50);
    }
    if (Atomics.load(state, DONE) >= pieces && Atomics.load(state, ANSWER) !== WORKER_FAILED) {
      this.answeredBy = !helped ? 'worker' : this.worker === null ? 'this thread' : 'both threads';
      this.recheckUnearned(pieces);
      return this.fromPieces(pieces);
    }
    this.stop();
    this.answeredBy = 'this thread';
    const trusted = Atomics.load(state, TRUSTED);
    return firstBadLine(this.bytes, this.from, this.end, this.seed, crc32, jsonSkipper(false), trusted);
  }

  /**
   * Waits up to `ms` for the worker to have checked every piece it was given; false if it has not
   * by then. The open never needs this (`answer` waits or helps); a test does, to know which path
   * the open's answer takes.
   */
  checkedAll(ms: number): boolean {
    const until = Date.now() + ms;
    for (;;) {
      const done = Atomics.load(this.state, DONE);
      if (this.begun && done >= this.state[PIECES]!) return true;
      const left = until - Date.now();
      if (left <= 0) return false;
      Atomics.wait(this.state, DONE, done, Math.min(left, 50));
    }
  }

  /** Checks again here, JSON included up to what was earned, every piece that skipped JSON the open did not earn. */
  private recheckUnearned(pieces: number): void {
    const earned = this.earned ?? 0;
    let skipper: JsonSkipper | null = null;
    for (let piece = 0; piece < pieces; piece++) {
      const used = this.state[PIECE_CELLS + piece * 2 + 1]!;
      if (used >= 0 || -used <= earned) continue;
      skipper ??= jsonSkipper(false);
      checkPiece(this.state, piece, this.bytes, crc32, skipper);
    }
  }

  /** The first bad line from the pieces' answers: the first bad piece's, after the lines of those before it. */
  private fromPieces(pieces: number): number {
    let lines = 0;
    for (let piece = 0; piece < pieces; piece++) {
      const answer = this.state[PIECE_CELLS + piece * 2]!;
      if (answer >= 0) return lines + answer;
      lines += -1 - answer;
    }
    return -1;
  }

  /** Calls the check off (if it still runs) and ends the worker. */
  stop(): void {
    if (Atomics.load(this.state, DATA) !== 2) {
      Atomics.store(this.state, DATA, 2);
      Atomics.notify(this.state, DATA);
    }
    void this.worker?.terminate();
    this.worker = null;
  }
}
