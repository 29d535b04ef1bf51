import * as fs from 'node:fs';
import type { ProcessProbe } from './process-probe';

/**
 * The few file operations the JSONL backend needs, behind an interface so that tests can inject
 * short writes, ENOSPC, EIO and fsync failures.
 */
export interface FileOps {
  openSync(path: string, flags: string, mode?: number): number;
  writeSync(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
  readSync(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
  fdatasyncSync(fd: number): void;
  fsyncSync(fd: number): void;
  ftruncateSync(fd: number, length: number): void;
  fstatSize(fd: number): number;
  /**
   * When the file open as `fd` was last written (its mtime in nanoseconds, as text): a write in
   * place that leaves the size as it was still moves it. Fakes may leave it out.
   */
  fstatWritten?(fd: number): string;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  unlinkSync(path: string): void;
  readFileSync(path: string): Buffer;
  /** Creates `path` holding `data`, failing with EEXIST when it exists; the content is never seen partial. */
  writeFileExclusive(path: string, data: string): void;
  existsSync(path: string): boolean;
  /** What is at `path` (symlinks followed), without opening it; null when nothing is. */
  kindOf(path: string): FileKind | null;
  /**
   * Which file is at `path` (device and inode, symlinks not followed), or null when nothing is: one
   * stat. An inode number is reused once its file is gone, so whoever compares keeps it open.
   */
  fileIdOf(path: string): string | null;
  /**
   * How the name `path` reaches its file (symlinks not followed): whether it is a symlink, and how
   * many names (hard links) the file has; null when nothing is there. Fakes without links may
   * leave it out.
   */
  nameOf?(path: string): { readonly symlink: boolean; readonly names: number } | null;
  /** The names in folder `dir`; fakes without links may leave it out. */
  namesIn?(dir: string): readonly string[];
  /** Who this process is and which others are alive, for the lock; the real system's when absent. */
  readonly processes?: ProcessProbe;
}

export type FileKind = 'file' | 'directory' | 'fifo' | 'socket' | 'device' | 'other';

function kindOfStats(stats: fs.Stats): FileKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isBlockDevice() || stats.isCharacterDevice()) return 'device';
  return 'other';
}

export const nodeFileOps: FileOps = {
  openSync: (path, flags, mode) => fs.openSync(path, flags, mode),
  writeSync: (fd, buffer, offset, length, position) => fs.writeSync(fd, buffer, offset, length, position),
  readSync: (fd, buffer, offset, length, position) => fs.readSync(fd, buffer, offset, length, position),
  fdatasyncSync: (fd) => fs.fdatasyncSync(fd),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
  fstatSize: (fd) => fs.fstatSync(fd).size,
  fstatWritten: (fd) => String(fs.fstatSync(fd, { bigint: true }).mtimeNs),
  closeSync: (fd) => fs.closeSync(fd),
  renameSync: (from, to) => fs.renameSync(from, to),
  unlinkSync: (path) => fs.unlinkSync(path),
  readFileSync: (path) => fs.readFileSync(path),
  writeFileExclusive: (path, data) => {
    // Written whole under a temporary name, synced, then linked into place (link fails when the
    // name exists): a crash never leaves the name with empty or partial content. The temporary
    // name only has to be new ('wx' refuses one that is not): the process id and 48 random bits,
    // from Math.random, which needs no crypto module (loading one costs a new session's first
    // frame ~5 ms; the session's lock is made before it).
    // A failed write or sync (a full disk) removes the temporary file too: nothing is left behind.
    const temp = `${path}.${process.pid}.${randomHex12()}.tmp`;
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      try {
        fs.writeFileSync(fd, data);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.linkSync(temp, path);
    } finally {
      fs.unlinkSync(temp);
    }
  },
  existsSync: (path) => fs.existsSync(path),
  kindOf: (path) => {
    const stats = fs.statSync(path, { throwIfNoEntry: false });
    return stats ? kindOfStats(stats) : null;
  },
  namesIn: (dir) => fs.readdirSync(dir),
  nameOf: (path) => {
    const stats = fs.lstatSync(path, { throwIfNoEntry: false });
    return stats ? { symlink: stats.isSymbolicLink(), names: stats.nlink } : null;
  },
  fileIdOf: (path) => {
    const stats = fs.lstatSync(path, { throwIfNoEntry: false, bigint: true });
    return stats ? `${stats.dev}:${stats.ino}` : null;
  },
};

/** 12 hex digits (48 bits) from Math.random. */
function randomHex12(): string {
  const high = Math.floor(Math.random() * 0x100_0000);
  const low = Math.floor(Math.random() * 0x100_0000);
  return high.toString(16).padStart(6, '0') + low.toString(16).padStart(6, '0');
}

/** Writes every byte of `buffer` at `position`, looping over short writes. */
export function writeWhole(ops: FileOps, fd: number, buffer: Buffer, position: number): void {
  let written = 0;
  while (written < buffer.length) {
    const n = ops.writeSync(fd, buffer, written, buffer.length - written, position + written);
    if (n <= 0) {
      throw Object.assign(new Error(`write made no progress after ${written} of ${buffer.length} bytes`), {
        code: 'ENOSPC',
      });
    }
    written += n;
  }
}

/** fsync of a directory, so that a create or rename inside it is durable (a no-op where unsupported). */
export function fsyncDirectory(ops: FileOps, dir: string): void {
  let fd: number | undefined;
  try {
    fd = ops.openSync(dir, 'r');
    ops.fsyncSync(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EISDIR' && code !== 'EINVAL') throw error;
  } finally {
    if (fd !== undefined) ops.closeSync(fd);
  }
}
