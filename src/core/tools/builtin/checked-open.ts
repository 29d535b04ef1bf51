import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { toolFs } from '../tool-fs';
import type { FileIdentity } from '../workspace';

/**
 * Every open of a workspace path: a symlink as the last component fails (ELOOP) instead of being
 * followed, a FIFO or device does not block the open, and no terminal becomes tole's.
 */
const GUARD_FLAGS = constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
/** Directory levels `removeTree` descends, each holding one descriptor. */
const MAX_REMOVE_DEPTH = 256;

/** A directory opened and checked: later names are resolved against the descriptor, not the path text. */
export interface CheckedDirectory {
  readonly handle: FileHandle;
  /** The real path the walk checked, for messages and for checking what is opened below it. */
  readonly absolutePath: string;
  /** True where `/proc/self/fd/N` names the open directory (Linux): names below it are resolved from it. */
  readonly viaDescriptor: boolean;
}

/** An error with the errno-like code `describeFsError` words for the model. */
function guardError(code: 'ESWAPPED' | 'ESPECIAL', message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * Opens `openPath` (the checked `absolutePath`, or a name below a checked directory) and makes
 * sure the descriptor is what the walk checked: a regular file or a directory by fstat (a FIFO,
 * socket or device is refused with ESPECIAL, and was opened without blocking); the same dev/ino
 * as `expected` when the walk saw it; and, where `/proc/self/fd` names it, at `absolutePath`
 * itself (a directory on the way swapped for a symlink is refused with ESWAPPED before a byte is
 * read or written).
 */
export async function openChecked(
  openPath: string,
  absolutePath: string,
  expected: FileIdentity | null,
  flags: number,
  mode?: number,
): Promise<FileHandle> {
  const handle = await toolFs().open(openPath, flags | GUARD_FLAGS, mode);
  try {
    const stats = await handle.stat({ bigint: true });
    if (!stats.isFile() && !stats.isDirectory()) {
      throw guardError('ESPECIAL', `${absolutePath} is not a regular file or a directory`);
    }
    if (expected !== null && (stats.dev !== expected.dev || stats.ino !== expected.ino)) {
      throw guardError('ESWAPPED', `${absolutePath} was replaced after the workspace check`);
    }
    const opened = await descriptorPath(handle);
    if (opened !== null && opened !== absolutePath) {
      throw guardError('ESWAPPED', `${absolutePath} led to ${opened} when opened`);
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Opens a directory the walk checked (`expected` null: one tole just created, checked by path only). */
export async function openDirectoryChecked(
  openPath: string,
  absolutePath: string,
  expected: FileIdentity | null,
): Promise<CheckedDirectory> {
  let handle: FileHandle;
  try {
    handle = await openChecked(openPath, absolutePath, expected, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (error) {
    // The walk saw a directory here (or tole just made one): a link or a file now is a swap.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'ELOOP')
      throw guardError('ESWAPPED', `${absolutePath} is no longer a directory`);
    throw error;
  }
  return { handle, absolutePath, viaDescriptor: (await descriptorPath(handle)) !== null };
}

/** The path that names `name` inside `directory`: through its descriptor where the system allows it. */
export function inDirectory(directory: CheckedDirectory, name: string): string {
  if (name.includes('/') || name === '..' || name === '.' || name === '') {
    throw new Error(`assert: ${JSON.stringify(name)} is not one plain name`);
  }
  return directory.viaDescriptor
    ? `/proc/self/fd/${directory.handle.fd}/${name}`
    : path.join(directory.absolutePath, name);
}

/** The path that names the directory itself, for readdir. */
export function directoryItself(directory: CheckedDirectory): string {
  return directory.viaDescriptor ? `/proc/self/fd/${directory.handle.fd}` : directory.absolutePath;
}

/**
 * Opens the directory below `directory` named `name`, creating it when missing. A symlink or a
 * file planted under that name fails the open (O_NOFOLLOW, O_DIRECTORY), so nothing is created
 * through it.
 */
export async function openOrMakeDirectory(directory: CheckedDirectory, name: string): Promise<CheckedDirectory> {
  const at = inDirectory(directory, name);
  try {
    await toolFs().mkdir(at);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return openDirectoryChecked(at, path.join(directory.absolutePath, name), null);
}

/**
 * Removes `name` inside `directory` without following a symlink anywhere: a link or a file is
 * unlinked, a directory is emptied through its own descriptor (each level opened with
 * O_NOFOLLOW and checked to be the directory lstat saw) and then removed.
 */
export async function removeTree(
  directory: CheckedDirectory,
  name: string,
  expected: FileIdentity | null = null,
  depth = 0,
): Promise<void> {
  const at = inDirectory(directory, name);
  const stats = await toolFs().lstat(at, { bigint: true });
  if (expected !== null && (stats.dev !== expected.dev || stats.ino !== expected.ino)) {
    throw guardError('ESWAPPED', `${path.join(directory.absolutePath, name)} was replaced after the workspace check`);
  }
  if (!stats.isDirectory()) {
    await toolFs().unlink(at);
    return;
  }
  if (depth >= MAX_REMOVE_DEPTH) {
    throw Object.assign(new Error(`more than ${MAX_REMOVE_DEPTH} directory levels below ${directory.absolutePath}`), {
      code: 'EDEEP',
    });
  }
  const child = await openDirectoryChecked(at, path.join(directory.absolutePath, name), {
    dev: stats.dev,
    ino: stats.ino,
  });
  try {
    for (const entry of await toolFs().readdir(directoryItself(child))) await removeTree(child, entry, null, depth + 1);
  } finally {
    await child.handle.close();
  }
  await toolFs().rmdir(at);
}

/** What `/proc/self/fd/N` says the descriptor is, or null where the system has no such names. */
async function descriptorPath(handle: FileHandle): Promise<string | null> {
  try {
    return await toolFs().readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return null;
  }
}
