/**
 * An in-memory disk for the fault simulator, with the durability rules of a real one: written
 * bytes are visible at once but durable only after fsync/fdatasync of their file; a created,
 * renamed or removed name is durable only after fsync of its directory. A crash keeps what is
 * durable, plus, for a file that grew since its last sync, a random prefix of the unsynced bytes
 * (a torn write, sometimes zero-filled). Faults come from the schedule: EIO and ENOSPC on write
 * (after part of it), short writes, EIO on fsync (fsyncgate: the unsynced bytes are then either
 * kept or lost), and a crash at the N-th operation, after which every operation fails.
 */
import { dirname } from 'node:path';
import type { Random } from '../../src/core/clock';
import type { FileKind, FileOps } from '../../src/core/storage/file-ops';
import type { ProcessProbe } from '../../src/core/storage/process-probe';
import type { DiskPlant } from './plants';

/** Thrown by every operation once the simulated process has crashed. */
export class SimCrash extends Error {
  override readonly name = 'SimCrash';
  constructor(readonly at: string) {
    super(`simulated crash (${at})`);
  }
}

/**
 * A file's bytes as processes see them and as a crash keeps them. The two may share memory: no
 * byte of `durable` is ever changed in place (a write over one goes to a fresh buffer), so a
 * sync keeps the bytes without copying them. Appends fill the spare room of `backing`, which
 * doubles when full: a session's commits cost no copy of the whole file each.
 */
interface Inode {
  data: Buffer;
  durable: Buffer;
  backing?: Buffer;
}

interface OpenFile {
  readonly inode: Inode | null;
  readonly dir: string | null;
}

export interface DiskFaults {
  /** Chance that a write to a session file fails (EIO or ENOSPC, after part of it). */
  writeFailure: number;
  /** Chance that a write is short (the caller must loop). */
  shortWrite: number;
  /** Chance that an fsync or fdatasync of a file fails with EIO. */
  syncFailure: number;
  /**
   * Chance that an fsync of a directory fails with EIO (0 unless DIRECTORY_FSYNC_FAILURES,
   * sim-settings.ts): the name it was to make durable (a rename, a create) is not.
   */
  dirSyncFailure: number;
  /** The operation count at which the process crashes (Infinity: never). */
  crashAtOp: number;
}

export const NO_FAULTS: DiskFaults = {
  writeFailure: 0,
  shortWrite: 0,
  syncFailure: 0,
  dirSyncFailure: 0,
  crashAtOp: Infinity,
};

function errno(code: string, syscall: string, path = ''): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated, ${syscall}${path ? ` '${path}'` : ''}`), { code, syscall });
}

export class SimDisk {
  /** name -> inode, as processes see it. */
  private names = new Map<string, Inode>();
  /** name -> inode, as it survives a crash. */
  private durableNames = new Map<string, Inode>();
  private readonly dirs = new Set<string>();
  private fds = new Map<number, OpenFile>();
  private nextFd = 3;
  /** A number per inode, as a real stat would give (FileOps.fileIdOf). */
  private readonly inodeIds = new WeakMap<Inode, string>();
  private nextInodeId = 1;
  private ops = 0;
  private crashed: string | null = null;
  faults: DiskFaults = NO_FAULTS;
  /** A planted bug: fdatasync returns without making anything durable, every time or once (at a call the seed picks). */
  planted: DiskPlant = null;
  private fdatasyncs = 0;
  /** With 'skip-one-fdatasync': which call (1-based, over the whole schedule) is skipped. */
  private readonly skippedFdatasync: number;
  /** The pid of the simulated process now running; a crash or a clean stop ends it. */
  livePid = 0;
  /** Stats for the report. */
  readonly counts = { ops: 0, writeFailures: 0, shortWrites: 0, syncFailures: 0, tornCrashes: 0 };

  constructor(private readonly random: Random) {
    this.skippedFdatasync = 1 + Math.floor(random.float() * 40);
  }

  mkdir(dir: string): void {
    this.dirs.add(dir);
  }

  get hasCrashed(): boolean {
    return this.crashed !== null;
  }

  /** Crashes the running process now (from a fault point of the turn loop). */
  crashNow(at: string): never {
    this.crashed ??= at;
    throw new SimCrash(at);
  }

  /** After a crash: the disk as it comes back (durable state plus torn tails); a new process may start. */
  recover(): void {
    const survivors = new Map<string, Inode>();
    for (const [name, inode] of this.durableNames) {
      const unsynced =
        inode.data.length > inode.durable.length && inode.data.subarray(0, inode.durable.length).equals(inode.durable);
      let data = Buffer.from(inode.durable);
      if (unsynced && this.random.float() < 0.5) {
        const extra = inode.data.subarray(inode.durable.length);
        const kept = Math.floor(this.random.float() * (extra.length + 1));
        const torn = this.random.float() < 0.25 ? Buffer.alloc(kept) : extra.subarray(0, kept);
        data = Buffer.concat([data, torn]);
        if (kept > 0) this.counts.tornCrashes++;
      }
      const fresh: Inode = { data, durable: Buffer.from(data) };
      survivors.set(name, fresh);
    }
    this.names = new Map(survivors);
    this.durableNames = new Map(survivors);
    this.fds = new Map();
    this.crashed = null;
    this.faults = NO_FAULTS;
  }

  /** A clean stop: open files are dropped, nothing is lost (the OS keeps what was written). */
  endProcess(): void {
    this.fds = new Map();
    this.faults = NO_FAULTS;
  }

  isDirectory(path: string): boolean {
    return this.dirs.has(path);
  }

  /** What a crash now would keep of the file at `path` (torn tails aside), or null when its name is not durable. */
  durableOf(path: string): Buffer | null {
    return this.durableNames.get(path)?.durable ?? null;
  }

  /**
   * Flips one byte inside a whole line of the file that is not its last line (a bit rot the CRC
   * chain must catch: such a line is corruption, never a torn tail). Returns the 1-based line, or
   * null when the file has fewer than three lines. Call it between processes, on a recovered disk.
   */
  corruptLine(path: string): number | null {
    const inode = this.names.get(path);
    if (!inode) return null;
    const starts = [0];
    for (
      let at = inode.data.indexOf(0x0a);
      at !== -1 && at < inode.data.length - 1;
      at = inode.data.indexOf(0x0a, at + 1)
    )
      starts.push(at + 1);
    // Whole lines end with a newline; the last one is left alone.
    const whole = inode.data[inode.data.length - 1] === 0x0a ? starts.length : starts.length - 1;
    if (whole < 3) return null;
    const line = Math.floor(this.random.float() * (whole - 1));
    const start = starts[line]!;
    const end = starts[line + 1]! - 1;
    const at = start + Math.floor(this.random.float() * (end - start));
    const data = Buffer.from(inode.data);
    data[at] = data[at]! ^ (1 + Math.floor(this.random.float() * 255));
    inode.data = data;
    inode.durable = Buffer.from(data);
    return line + 1;
  }

  /** Puts `data` at `path`, durably, as another program would between processes. */
  overwrite(path: string, data: Buffer): void {
    const inode: Inode = { data: Buffer.from(data), durable: Buffer.from(data) };
    this.names.set(path, inode);
    this.durableNames.set(path, inode);
  }

  /**
   * Another program (a sync tool, an editor saving by rename, a model's `mv`) changes the file at
   * `path` behind the process that has it open, as one step, durably: `renamed` puts a copy of it
   * in its place (another inode, the same bytes), `cut` takes `bytes` off its end, `appended` adds
   * `bytes` to it. Not counted as the process's operations (no fault fires in it).
   */
  changeBehind(path: string, how: 'renamed' | 'cut' | 'appended', bytes: Buffer | number): void {
    const inode = this.names.get(path);
    if (!inode) throw new Error(`assert: no file ${path} to change`);
    if (how === 'renamed') {
      this.overwrite(path, inode.data);
      return;
    }
    const data =
      how === 'cut'
        ? Buffer.from(inode.data.subarray(0, Math.max(0, inode.data.length - (bytes as number))))
        : Buffer.concat([inode.data, bytes as Buffer]);
    inode.data = data;
    inode.durable = Buffer.from(data);
    inode.backing = undefined;
  }

  fileNames(): string[] {
    return [...this.names.keys()].sort();
  }

  private inodeId(inode: Inode): string {
    let id = this.inodeIds.get(inode);
    if (id === undefined) {
      id = `sim:${this.nextInodeId++}`;
      this.inodeIds.set(inode, id);
    }
    return id;
  }

  /** Whether the file at `path` holds exactly `bytes` now (no copy of it made, as read makes). */
  holds(path: string, bytes: Buffer): boolean {
    return this.names.get(path)?.data.equals(bytes) === true;
  }

  /** Whether a file is at `path` now (without the copy of it `read` makes). */
  has(path: string): boolean {
    return this.names.has(path);
  }

  read(path: string): Buffer | null {
    const inode = this.names.get(path);
    return inode ? Buffer.from(inode.data) : null;
  }

  /** The FileOps of one simulated process, with its identity for the lock. */
  opsFor(pid: number): FileOps {
    const processes: ProcessProbe = {
      pid,
      host: 'sim',
      bootId: () => 'sim-boot',
      pidNamespace: () => null,
      exists: (other) => other === this.livePid,
      startTime: (other) => (other === this.livePid ? String(other) : null),
    };
    return {
      processes,
      openSync: (path, flags) => this.open(path, flags),
      writeSync: (fd, buffer, offset, length, position) => this.write(fd, buffer, offset, length, position),
      readSync: (fd, buffer, offset, length, position) => {
        const inode = this.fileOf(fd, 'read');
        const n = Math.max(0, Math.min(length, inode.data.length - position));
        inode.data.copy(buffer, offset, position, position + n);
        return n;
      },
      fdatasyncSync: (fd) => this.sync(fd, 'fdatasync'),
      fsyncSync: (fd) => this.sync(fd, 'fsync'),
      ftruncateSync: (fd, length) => {
        const inode = this.fileOf(fd, 'ftruncate');
        inode.data =
          length <= inode.data.length
            ? Buffer.from(inode.data.subarray(0, length))
            : Buffer.concat([inode.data, Buffer.alloc(length - inode.data.length)]);
      },
      fstatSize: (fd) => this.fileOf(fd, 'fstat').data.length,
      closeSync: (fd) => {
        this.step('close');
        this.fds.delete(fd);
      },
      renameSync: (from, to) => {
        this.step('rename');
        const inode = this.names.get(from);
        if (!inode) throw errno('ENOENT', 'rename', from);
        this.names.delete(from);
        this.names.set(to, inode);
      },
      unlinkSync: (path) => {
        this.step('unlink');
        if (!this.names.delete(path)) throw errno('ENOENT', 'unlink', path);
      },
      readFileSync: (path) => {
        this.step('readFile');
        const inode = this.names.get(path);
        if (!inode) throw errno('ENOENT', 'open', path);
        return Buffer.from(inode.data);
      },
      writeFileExclusive: (path, data) => {
        // As the real one: content synced under a temporary name, then linked into place.
        const fd = this.open(path, 'wx');
        const inode = this.fileOf(fd, 'write');
        inode.data = Buffer.from(data);
        inode.durable = Buffer.from(data);
        this.fds.delete(fd);
      },
      existsSync: (path) => this.names.has(path) || this.dirs.has(path),
      fileIdOf: (path) => {
        const inode = this.names.get(path);
        return inode ? this.inodeId(inode) : null;
      },
      kindOf: (path): FileKind | null => (this.dirs.has(path) ? 'directory' : this.names.has(path) ? 'file' : null),
    };
  }

  private step(what: string): void {
    if (this.crashed !== null) throw new SimCrash(this.crashed);
    this.counts.ops++;
    if (++this.ops >= this.faults.crashAtOp) this.crashNow(`at operation ${this.ops} (${what})`);
  }

  private fileOf(fd: number, what: string): Inode {
    this.step(what);
    const open = this.fds.get(fd);
    if (!open) throw errno('EBADF', what);
    if (!open.inode) throw errno('EISDIR', what);
    return open.inode;
  }

  private open(path: string, flags: string): number {
    this.step('open');
    if (this.dirs.has(path)) {
      if (flags !== 'r') throw errno('EISDIR', 'open', path);
      const fd = this.nextFd++;
      this.fds.set(fd, { inode: null, dir: path });
      return fd;
    }
    if (!this.dirs.has(dirname(path))) throw errno('ENOENT', 'open', path);
    let inode = this.names.get(path);
    // 'wx+' is 'wx' here: a simulated file can always be read back through its fd.
    const exclusive = flags === 'wx' || flags === 'wx+';
    if (exclusive && inode) throw errno('EEXIST', 'open', path);
    if (exclusive || (flags === 'w+' && !inode)) {
      inode = { data: Buffer.alloc(0), durable: Buffer.alloc(0) };
      this.names.set(path, inode);
    } else if (flags === 'w+') inode!.data = Buffer.alloc(0);
    if (!inode) throw errno('ENOENT', 'open', path);
    const fd = this.nextFd++;
    this.fds.set(fd, { inode, dir: null });
    return fd;
  }

  private write(fd: number, buffer: Buffer, offset: number, length: number, position: number): number {
    const inode = this.fileOf(fd, 'write');
    let n = length;
    const fail = this.random.float() < this.faults.writeFailure;
    if (fail || this.random.float() < this.faults.shortWrite) n = Math.floor(this.random.float() * length);
    const end = position + n;
    let backing = inode.backing;
    const ownsData = backing !== undefined && inode.data.buffer === backing.buffer && inode.data.byteOffset === 0;
    if (backing === undefined || !ownsData || end > backing.length || position < inode.durable.length) {
      backing = Buffer.alloc(Math.max(4096, 2 * Math.max(end, inode.data.length)));
      inode.data.copy(backing, 0);
      inode.backing = backing;
    }
    buffer.copy(backing, position, offset, offset + n);
    inode.data = backing.subarray(0, Math.max(end, inode.data.length));
    if (fail) {
      this.counts.writeFailures++;
      throw errno(this.random.float() < 0.5 ? 'EIO' : 'ENOSPC', 'write');
    }
    if (n < length) this.counts.shortWrites++;
    return n;
  }

  private sync(fd: number, syscall: 'fsync' | 'fdatasync'): void {
    this.step(syscall);
    const open = this.fds.get(fd);
    if (!open) throw errno('EBADF', syscall);
    if (this.random.float() < (open.inode ? this.faults.syncFailure : this.faults.dirSyncFailure)) {
      this.counts.syncFailures++;
      // fsyncgate: the pages are marked clean either way; whether they reached the disk is unknown.
      if (open.inode && this.random.float() < 0.5) open.inode.durable = open.inode.data;
      else if (open.inode) {
        // The lost bytes are gone: the next write must not find them in the spare room.
        open.inode.data = open.inode.durable;
        open.inode.backing = undefined;
      }
      throw errno('EIO', syscall);
    }
    if (syscall === 'fdatasync') {
      this.fdatasyncs++;
      if (
        this.planted === 'skip-fdatasync' ||
        (this.planted === 'skip-one-fdatasync' && this.fdatasyncs === this.skippedFdatasync)
      )
        return;
    }
    if (open.inode) open.inode.durable = open.inode.data;
    else
      this.durableNames = new Map(
        [...this.names]
          .filter(([name]) => dirname(name) === open.dir)
          .concat([...this.durableNames].filter(([name]) => dirname(name) !== open.dir)),
      );
  }
}
