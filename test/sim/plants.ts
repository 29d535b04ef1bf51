/**
 * The simulator's mutation list: each plant is a named bug put into the code a schedule runs,
 * through the seams tole already has for tests (the FileOps and ProcessProbe handed to the
 * store, the tools handed to the registry, the simulated disk). Nothing here is in shipped code.
 * `npm run sim -- --plant NAME` runs with one; plants.test.ts asserts every one is caught.
 */
import { crc32 } from 'node:zlib';
import type { FileOps } from '../../src/core/storage/file-ops';
import { LINE_PREFIX_BYTES } from '../../src/core/storage/line-codec';

/** What a plant changes inside the simulated world's own tools (sim-world.ts). */
export type WorldPlant =
  | 'effect-at-prepare'
  | 'guard-whole-file'
  | 'write-guard-two-states'
  | 'restore-writes-nothing'
  | 'ref-swap-without-cas'
  | null;
/** What a plant changes in the `task` tool the simulator hands the registry (sim-children.ts). */
export type TaskPlant = 'new-child-on-resume' | null;
/** What a plant changes in the simulated disk (sim-disk.ts). */
export type DiskPlant = 'skip-fdatasync' | 'skip-one-fdatasync' | null;

export interface Plant {
  /** The bug, as a sentence. */
  readonly bug: string;
  readonly disk?: DiskPlant;
  readonly world?: WorldPlant;
  /** What a plant changes in the in-memory team table the shipper writes to (sim-team-table.ts). */
  readonly table?: 'cursor-alone';
  readonly task?: TaskPlant;
  /** Wraps the FileOps of each simulated process (the writer's and the checker's alike). */
  readonly ops?: (ops: FileOps, isDirectory: (path: string) => boolean) => FileOps;
}

export const PLANTS = {
  'skip-fdatasync': {
    bug: 'every fdatasync returns without making anything durable',
    disk: 'skip-fdatasync',
  },
  'skip-one-fdatasync': {
    bug: 'one fdatasync (the seed picks which) returns without making anything durable',
    disk: 'skip-one-fdatasync',
  },
  'fsync-eio-ignored': {
    bug: 'an EIO from fsync or fdatasync is swallowed, and the commit is acknowledged',
    ops: (ops) => ({
      ...ops,
      fdatasyncSync: (fd) => swallowEio(() => ops.fdatasyncSync(fd)),
      fsyncSync: (fd) => swallowEio(() => ops.fsyncSync(fd)),
    }),
  },
  'dir-fsync-skipped': {
    bug: 'a directory is never fsynced, so a created or renamed name (new session, compaction, lock) is not durable',
    ops: (ops, isDirectory) => {
      const dirs = directoryFds(ops, isDirectory);
      return {
        ...ops,
        openSync: dirs.openSync,
        fsyncSync: (fd) => {
          if (!dirs.has(fd)) ops.fsyncSync(fd);
        },
      };
    },
  },
  'compaction-dir-fsync-skipped': {
    bug: 'compaction renames the rewritten file over the session file and never fsyncs the directory, so a crash can bring the old file back without the commits acknowledged since',
    ops: (ops, isDirectory) => skipDirFsyncAfterRename(ops, isDirectory, (from) => from.endsWith('.compact.tmp')),
  },
  'create-dir-fsync-skipped': {
    bug: "a new session's file is renamed into place and its directory never fsynced, so a crash can take the file and every commit acknowledged in it",
    ops: (ops, isDirectory) =>
      skipDirFsyncAfterRename(ops, isDirectory, (from, to) => to.endsWith('.jsonl') && !from.endsWith('.compact.tmp')),
  },
  'open-name-not-made-durable': {
    bug: "a writable open does not fsync the session's directory before its first commit, trusting that the rename which put the file in place (a compaction whose directory fsync failed) was made durable",
    ops: (ops, isDirectory) => {
      // Whether this process created (the lock aside, which tole never fsyncs) or renamed a name since its last
      // directory fsync: only then does it fsync one.
      let named = false;
      const dirs = directoryFds(ops, isDirectory);
      return {
        ...ops,
        renameSync: (from, to) => {
          ops.renameSync(from, to);
          named = true;
        },
        openSync: (path, flags, mode) => {
          const fd = dirs.openSync(path, flags, mode);
          if (flags.includes('w')) named = true;
          return fd;
        },
        fsyncSync: (fd) => {
          if (!dirs.has(fd)) return ops.fsyncSync(fd);
          if (named) ops.fsyncSync(fd);
          named = false;
        },
      };
    },
  },
  'crc-not-checked': {
    bug: 'replay does not check the CRC chain: every whole line reads as if its checksum matched',
    ops: (ops) => {
      const paths = new Map<number, string>();
      const read = (path: string): Buffer => rechained(ops.readFileSync(path));
      return {
        ...ops,
        openSync: (path, flags, mode) => {
          const fd = ops.openSync(path, flags, mode);
          paths.set(fd, path);
          return fd;
        },
        readFileSync: (path) => (path.endsWith('.jsonl') ? read(path) : ops.readFileSync(path)),
        readSync: (fd, buffer, offset, length, position) => {
          const path = paths.get(fd);
          if (path === undefined || !path.endsWith('.jsonl')) return ops.readSync(fd, buffer, offset, length, position);
          const bytes = read(path);
          const n = Math.max(0, Math.min(length, bytes.length - position));
          bytes.copy(buffer, offset, position, position + n);
          return n;
        },
      };
    },
  },
  'lock-holder-taken-for-dead': {
    bug: "the lock's liveness check says its holder is gone while it runs, so a second opener takes the lock over",
    ops: (ops) => ({
      ...ops,
      processes: { ...ops.processes!, exists: () => false, startTime: () => null },
    }),
  },
  'lock-inode-not-checked': {
    bug: 'a writer never looks at its lock file again, so it goes on committing after tole unlock removed or another tole replaced it',
    ops: (ops) => ({
      ...ops,
      fileIdOf: (path) => (path.endsWith('.lock') ? 'the lock this writer made' : ops.fileIdOf(path)),
    }),
  },
  'session-file-change-unchecked': {
    bug: 'a writer never looks at its session file again, so it goes on committing after another program renamed a copy over it, cut it or appended to it',
    ops: (ops) => unseenChanges(ops),
  },
  'sync-cursor-alone': {
    bug: "the shipper's cursor is moved in a transaction of its own, so a connection lost before the rows commit leaves the cursor past records the team table never got",
    table: 'cursor-alone',
  },
  'effect-before-intent': {
    bug: 'a call approved without asking (--yes, an allow rule) runs its effect while it is prepared, before its intent is committed',
    world: 'effect-at-prepare',
  },
  'edit-guard-whole-file': {
    bug: "edit_file's resume guard compares the whole file's hash with the one the edit would leave, so a line someone else added makes it run again",
    world: 'guard-whole-file',
  },
  'write-guard-two-states': {
    bug: 'write_file\'s resume guard knows only "written" and "not written", so a file someone else changed since is written again',
    world: 'write-guard-two-states',
  },
  'ref-swap-without-cas': {
    bug: "the checkpoint ref is moved without comparing it with the parent first, so another tole's checkpoint falls off the chain",
    world: 'ref-swap-without-cas',
  },
  'new-child-on-resume': {
    bug: 'a task call resumed from the file starts a new sub-agent under a new id instead of going on with the one its committed intent names',
    task: 'new-child-on-resume',
  },
  'restore-writes-nothing': {
    bug: 'a restore reports success and leaves the files as they were',
    world: 'restore-writes-nothing',
  },
} as const satisfies Record<string, Plant>;

export type PlantName = keyof typeof PLANTS;

export function isPlantName(name: string): name is PlantName {
  return Object.hasOwn(PLANTS, name);
}

export function plantNamed(name: string | undefined | null): Plant | null {
  if (name === undefined || name === null) return null;
  if (!isPlantName(name))
    throw new Error(`there is no plant named ${JSON.stringify(name)}; known plants: ${Object.keys(PLANTS).join(', ')}`);
  return PLANTS[name];
}

function swallowEio(sync: () => void): void {
  try {
    sync();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EIO') throw error;
  }
}

/** The file with the checksum of every whole commit line recomputed along the chain (the header seeds it). */
function rechained(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  const headerEnd = out.indexOf(0x0a);
  if (headerEnd < 0) return out;
  let crc = crc32(out.subarray(0, headerEnd));
  for (let start = headerEnd + 1; start < out.length; ) {
    const end = out.indexOf(0x0a, start);
    if (end < 0) break;
    if (end - start >= LINE_PREFIX_BYTES + 2 && out[end - 1] === 0x7d) {
      crc = crc32(out.subarray(start + LINE_PREFIX_BYTES, end - 1), crc);
      out.write(crc.toString(16).padStart(8, '0'), start + 6, 'latin1');
    }
    start = end + 1;
  }
  return out;
}

/**
 * `ops` with the directory fsync that follows a rename matching `renamed` skipped: the rename
 * stays visible, and a crash before another fsync of the directory brings the old name back.
 */
function skipDirFsyncAfterRename(
  ops: FileOps,
  isDirectory: (path: string) => boolean,
  renamed: (from: string, to: string) => boolean,
): FileOps {
  let skipNext = false;
  const dirs = directoryFds(ops, isDirectory);
  return {
    ...ops,
    renameSync: (from, to) => {
      ops.renameSync(from, to);
      if (renamed(from, to)) skipNext = true;
    },
    openSync: dirs.openSync,
    fsyncSync: (fd) => {
      if (skipNext && dirs.has(fd)) skipNext = false;
      else ops.fsyncSync(fd);
    },
  };
}

/** Which of a process's open descriptors are directories, kept by the `openSync` that opens them. */
interface DirectoryFds {
  /** `ops.openSync`, noting whether the descriptor it returns is a directory's. */
  readonly openSync: FileOps['openSync'];
  /** Whether `fd` was last opened on a directory (a closed file's number may come back for a directory, and back again). */
  readonly has: (fd: number) => boolean;
}

function directoryFds(ops: FileOps, isDirectory: (path: string) => boolean): DirectoryFds {
  const dirs = new Set<number>();
  return {
    openSync: (path, flags, mode) => {
      const fd = ops.openSync(path, flags, mode);
      if (isDirectory(path)) dirs.add(fd);
      else dirs.delete(fd);
      return fd;
    },
    has: (fd) => dirs.has(fd),
  };
}

/**
 * `ops` as a writer that takes its session file for unchanged sees them: the path always names
 * the file it first named, and an open file is the size this process's own writes and truncations
 * left it (the size at open before any), whatever another program did since.
 */
function unseenChanges(ops: FileOps): FileOps {
  const firstIds = new Map<string, string | null>();
  const sizes = new Map<number, number>();
  return {
    ...ops,
    fileIdOf: (path) => {
      if (!path.endsWith('.jsonl')) return ops.fileIdOf(path);
      if (!firstIds.has(path)) firstIds.set(path, ops.fileIdOf(path));
      return firstIds.get(path) ?? null;
    },
    openSync: (path, flags, mode) => {
      const fd = ops.openSync(path, flags, mode);
      if (path.endsWith('.jsonl')) sizes.set(fd, ops.fstatSize(fd));
      else sizes.delete(fd);
      return fd;
    },
    writeSync: (fd, buffer, offset, length, position) => {
      const n = ops.writeSync(fd, buffer, offset, length, position);
      const size = sizes.get(fd);
      if (size !== undefined) sizes.set(fd, Math.max(size, position + n));
      return n;
    },
    ftruncateSync: (fd, length) => {
      ops.ftruncateSync(fd, length);
      if (sizes.has(fd)) sizes.set(fd, length);
    },
    fstatSize: (fd) => sizes.get(fd) ?? ops.fstatSize(fd),
  };
}
