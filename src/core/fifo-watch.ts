import { readdirSync, readFileSync, readlinkSync, statSync, openSync, readSync, closeSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/**
 * Sees a checkpoint's git stuck on a FIFO of the workspace. A repository, or a confined command
 * (it may write the workspace: `mkfifo .gitignore`), can put a FIFO where git reads a file: an
 * ignore or attributes file in any folder, .gitmodules, .mailmap, a nested repository's files.
 * git's open(2) of it then waits for a writer that never comes, and its read waits for data a
 * writer that opened it never sends; no name list can know every file git reads. So tole looks at
 * the running git itself, in /proc: a thread waiting in the kernel's FIFO open (`wait_for_partner`),
 * or any file descriptor of the git on a named FIFO (a path, not an anonymous `pipe:[…]` such as
 * its own stdin). Either is git waiting on a FIFO, whatever the load: the decision is the state,
 * not how long it took. The check runs while a git runs, every CHECK_EVERY_MS; where /proc does not
 * say (not Linux), nothing is watched and the checkpoint's time limit alone bounds the git.
 */

/** How often a running git is looked at. The reads are a few small /proc files. */
export const CHECK_EVERY_MS = 200;

/** How many processes of a git's tree are looked at (git and what it started). */
const MAX_PROCESSES = 16;

const AT_FDCWD = new Set(['0xffffff9c', '0xffffffffffffff9c']);

/** The syscall numbers of open and openat, and which argument holds the path, on this machine. */
const OPENS: Record<string, ReadonlyMap<number, { readonly dirArg: number | null; readonly pathArg: number }>> = {
  x64: new Map([
    [2, { dirArg: null, pathArg: 0 }],
    [257, { dirArg: 0, pathArg: 1 }],
  ]),
  arm64: new Map([[56, { dirArg: 0, pathArg: 1 }]]),
};

export interface FifoFound {
  /** The FIFO's path, when /proc told it; null when only the wait was seen. */
  readonly path: string | null;
}

/** What a notice says of a git found waiting on `found`. */
export function fifoMessage(found: FifoFound): string {
  const what = found.path === null ? 'a FIFO (a named pipe) in the workspace' : `the FIFO ${found.path}`;
  return `it waited on ${what}, where git reads a file (an ignore or attributes file, .gitmodules, …); a FIFO there waits for a writer and would hang every checkpoint: remove it or replace it with a regular file, and checkpoints go on`;
}

/** Reads a /proc file, or null when the process or the file is gone. */
function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function link(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/** The NUL-ended string at `address` in the process's memory, or null. */
function stringAt(pid: number, address: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/mem`, 'r');
    const buffer = Buffer.alloc(4096);
    const read = readSync(fd, buffer, 0, buffer.length, Number(BigInt(address)));
    const end = buffer.subarray(0, read).indexOf(0);
    return end < 0 ? null : buffer.subarray(0, end).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The path a thread waiting in open(2)/openat(2) is opening, from its syscall line and memory. */
function openingPath(pid: number, tid: number): string | null {
  const line = readProc(`/proc/${pid}/task/${tid}/syscall`)?.trim().split(' ');
  const open = line && OPENS[process.arch]?.get(Number(line[0]));
  if (!line || !open) return null;
  const path = stringAt(pid, line[1 + open.pathArg]!);
  if (path === null || isAbsolute(path)) return path;
  const dir =
    open.dirArg === null || AT_FDCWD.has(line[1 + open.dirArg]!)
      ? link(`/proc/${pid}/cwd`)
      : link(`/proc/${pid}/fd/${Number(BigInt(line[1 + open.dirArg]!))}`);
  return dir === null ? path : join(dir, path);
}

function numbers(dir: string): number[] {
  try {
    return readdirSync(dir).map(Number).filter(Number.isInteger);
  } catch {
    return [];
  }
}

/** What one process of the tree waits on, if a FIFO. */
function fifoOf(pid: number): FifoFound | null {
  for (const tid of numbers(`/proc/${pid}/task`)) {
    if (readProc(`/proc/${pid}/task/${tid}/wchan`) === 'wait_for_partner') return { path: openingPath(pid, tid) };
  }
  for (const fd of numbers(`/proc/${pid}/fd`)) {
    const target = link(`/proc/${pid}/fd/${fd}`);
    if (target === null || !target.startsWith('/')) continue;
    try {
      if (statSync(`/proc/${pid}/fd/${fd}`).isFIFO()) return { path: target };
    } catch {
      // The descriptor closed meanwhile.
    }
  }
  return null;
}

/** The process `pid` and those it started (to MAX_PROCESSES), by /proc's children lists. */
function tree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length && all.length < MAX_PROCESSES; i++) {
    for (const tid of numbers(`/proc/${all[i]}/task`)) {
      const children = readProc(`/proc/${all[i]}/task/${tid}/children`);
      for (const child of children?.trim().split(' ') ?? []) if (child) all.push(Number(child));
    }
  }
  return all.slice(0, MAX_PROCESSES);
}

/** Whether the git with `pid` (or what it started) waits on a FIFO now. */
export function gitOnFifo(pid: number): FifoFound | null {
  for (const each of tree(pid)) {
    const found = fifoOf(each);
    if (found) return found;
  }
  return null;
}

const canWatch = process.platform === 'linux' && readProc('/proc/self/wchan') !== null;

/**
 * Looks at the git with `pid` every CHECK_EVERY_MS until the returned stop runs, and calls
 * `found` once (then stops) when it waits on a FIFO. The timer does not keep tole running.
 */
export function watchForFifo(pid: number | undefined, found: (fifo: FifoFound) => void): () => void {
  if (!canWatch || pid === undefined) return () => {};
  const timer = setInterval(() => {
    const fifo = gitOnFifo(pid);
    if (fifo === null) return;
    clearInterval(timer);
    found(fifo);
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
