import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ToolOutput } from '../tool';
import { toolFs } from '../tool-fs';
import { type ResolveOptions, resolveWorkspacePath, shownTarget, type WorkspacePath } from '../workspace';
import {
  type CheckedDirectory,
  inDirectory,
  openChecked,
  openDirectoryChecked,
  openOrMakeDirectory,
} from './checked-open';

/** How much of a file's start is looked at to decide whether it is binary. */
const BINARY_SNIFF_BYTES = 8 * 1024;
/** Files larger than this are not loaded whole for editing or diffing. */
const MAX_TEXT_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Thrown by a tool's `prepare` when the call cannot apply (the edit's text is missing, the path
 * leaves the workspace): the caller settles the call as an error with this message, which the
 * model reads, before any intent is committed or approval asked for.
 */
export class PrepareError extends Error {
  readonly kind = 'not-applicable';
  override readonly name = 'PrepareError';
}

export function failure(content: string): ToolOutput {
  return { ok: false, content };
}

/** Resolves a model-given path inside the workspace, or the failure the model reads. */
export async function workspacePathOrFailure(
  workspaceRoot: string,
  requested: string,
  options?: ResolveOptions,
): Promise<{ ok: true; path: WorkspacePath } | { ok: false; output: ToolOutput }> {
  const resolved = await resolveWorkspacePath(workspaceRoot, requested, options);
  return resolved.ok ? resolved : { ok: false, output: failure(resolved.error.message) };
}

/**
 * The subject of a call that names `requested`: the workspace-relative path it resolves to, with
 * what was written when that differs; as written when the path is refused (the call fails then,
 * before anyone is asked).
 */
export async function pathSubject(workspaceRoot: string, requested: string, options?: ResolveOptions): Promise<string> {
  const resolved = await resolveWorkspacePath(workspaceRoot, requested, options);
  return resolved.ok ? shownTarget(resolved.path, requested) : requested;
}

/**
 * The workspace path a call names, as checkpoints read it (`Tool.workspaceEffect`): resolved,
 * relative to the workspace root; null when it cannot be resolved or is the root itself.
 */
export async function namedWorkspacePaths(
  workspaceRoot: string,
  requested: string,
  options?: ResolveOptions,
): Promise<readonly string[] | null> {
  const resolved = await resolveWorkspacePath(workspaceRoot, requested, options);
  return resolved.ok && resolved.path.relativePath !== '.' ? [resolved.path.relativePath] : null;
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The SHA-256 of a checked file's bytes, streamed; null when it is not there or not a regular file. */
export async function hashFileIfPresent(target: WorkspacePath): Promise<string | null> {
  if (target.found.kind !== 'file') return null;
  try {
    const hash = createHash('sha256');
    const handle = await openFileForReading(target);
    for await (const chunk of handle.createReadStream()) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch (error) {
    if (isFsError(error)) return null;
    throw error;
  }
}

/**
 * Which regular file is at `target`: its inode number and birth time, or null when there is none.
 * tole writes a file by renaming a new one into place (`writeFileDurably`), so the same identity
 * means no such write happened since; a file put back (git checkout, an editor's save by rename)
 * is a new one, though its inode number may be the freed one's again: hence the birth time. On a
 * file system that keeps no birth time, the change time stands in for it (an edit in place then
 * counts as another file: the safe side).
 */
export async function fileIdentity(target: WorkspacePath): Promise<string | null> {
  if (target.found.kind !== 'file') return null;
  try {
    const stats = await toolFs().lstat(target.absolutePath, { bigint: true });
    if (!stats.isFile()) return null;
    return stats.birthtimeNs > 0n ? `${stats.ino}:${stats.birthtimeNs}` : `${stats.ino}:c${stats.ctimeNs}`;
  } catch (error) {
    if (isFsError(error)) return null;
    throw error;
  }
}

/**
 * Opens the regular file the walk found at `target` for reading (see `openChecked`), by its name
 * in its checked parent directory: a directory on the way swapped for a link fails at the parent
 * (opening a directory does nothing), so no file outside is ever opened, not even to be refused.
 */
export async function openFileForReading(target: WorkspacePath): Promise<FileHandle> {
  const { found, existingDirectory } = target;
  if (found.kind !== 'file') throw new Error(`assert: ${target.absolutePath} is a ${found.kind}, not a file`);
  const parent = await openDirectoryChecked(
    existingDirectory.absolutePath,
    existingDirectory.absolutePath,
    existingDirectory,
  );
  try {
    const name = path.basename(target.absolutePath);
    return await openChecked(inDirectory(parent, name), target.absolutePath, found, constants.O_RDONLY);
  } finally {
    await parent.handle.close();
  }
}

/** A NUL byte in the first `BINARY_SNIFF_BYTES` marks a file as binary (what git and grep do). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** The first `length` bytes of an open file. */
export async function readStart(handle: FileHandle, length: number = BINARY_SNIFF_BYTES): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, 0);
  return buffer.subarray(0, bytesRead);
}

export type TextFileRead =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'directory' }
  | { readonly kind: 'refused'; readonly reason: string };

/** A whole text file, or why it cannot be treated as one (missing, a directory, special, binary, too large). */
export async function readTextFile(target: WorkspacePath): Promise<TextFileRead> {
  const shownPath = target.relativePath;
  if (target.found.kind === 'missing') return { kind: 'missing' };
  if (target.found.kind === 'directory') return { kind: 'directory' };
  if (target.found.kind !== 'file') return { kind: 'refused', reason: specialMessage(shownPath) };
  const handle = await openFileForReading(target);
  try {
    const { size } = await handle.stat();
    if (size > MAX_TEXT_FILE_BYTES) {
      return {
        kind: 'refused',
        reason: `${shownPath} is ${size} bytes, more than the ${MAX_TEXT_FILE_BYTES}-byte limit for editing.`,
      };
    }
    const bytes = await handle.readFile();
    if (looksBinary(bytes)) return { kind: 'refused', reason: `${shownPath} is a binary file.` };
    return { kind: 'text', text: bytes.toString('utf8') };
  } finally {
    await handle.close();
  }
}

/** Words for a path that is a FIFO, socket or device: tole's file tools only handle regular files. */
export function specialMessage(shownPath: string): string {
  return `${shownPath} is not a regular file (a FIFO, socket or device); file tools only read and write regular files and directories.`;
}

/**
 * Replaces the checked `target` so that a crash leaves either the old or the new content, never
 * a torn file: a temporary file in the same directory is written and fsynced, renamed over the
 * target, and the directory is fsynced. Missing parent directories are created only now, once the
 * whole path is known to be inside, one level at a time through the descriptor of the level above
 * (a symlink planted on the way fails the open). An existing file's permission bits are kept.
 * `tag` makes the temporary name unique to the call.
 */
export async function writeFileDurably(target: WorkspacePath, content: string, tag: string): Promise<void> {
  const name = path.basename(target.absolutePath);
  if (target.found.kind === 'directory' || target.relativePath === '.') {
    throw new Error(`assert: writing over the directory ${target.absolutePath}`);
  }
  const directory = await openParentDirectory(target);
  try {
    const existing = target.found.kind === 'file' ? await toolFs().lstat(inDirectory(directory, name)) : null;
    const mode = existing?.isFile() ? existing.mode & 0o7777 : null;
    const temporary = temporaryName(name, tag);
    try {
      await toolFs().rm(inDirectory(directory, temporary), { force: true }); // one a crash left behind on an earlier run of this call
      await writeNewFile(directory, temporary, content, mode);
      await toolFs().rename(inDirectory(directory, temporary), inDirectory(directory, name));
    } catch (error) {
      await toolFs().rm(inDirectory(directory, temporary), { force: true });
      throw error;
    }
    await syncOpenDirectory(directory.handle);
  } finally {
    await directory.handle.close();
  }
}

/** The name of the temporary file `writeFileDurably` writes beside `name` for the call `tag`, and renames into place. */
export function temporaryName(name: string, tag: string): string {
  return `.${name.slice(0, 100)}.${safeTag(tag)}.tole-tmp`;
}

/** The directory `target` goes in, opened and checked, its missing levels created. */
async function openParentDirectory(target: WorkspacePath): Promise<CheckedDirectory> {
  const start = target.existingDirectory;
  let directory = await openDirectoryChecked(start.absolutePath, start.absolutePath, start);
  for (const level of target.missing.slice(0, -1)) {
    try {
      const next = await openOrMakeDirectory(directory, level);
      await directory.handle.close();
      directory = next;
    } catch (error) {
      await directory.handle.close();
      throw error;
    }
  }
  return directory;
}

/** A new file (O_EXCL, no link followed) in the checked directory, written and fsynced. */
async function writeNewFile(
  directory: CheckedDirectory,
  name: string,
  content: string,
  mode: number | null,
): Promise<void> {
  const handle = await openChecked(
    inDirectory(directory, name),
    path.join(directory.absolutePath, name),
    null,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
    mode ?? 0o666,
  );
  try {
    await handle.writeFile(content, 'utf8');
    if (mode !== null) await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename durable. Platforms that cannot fsync a directory say so with these codes. */
export async function syncOpenDirectory(handle: FileHandle): Promise<void> {
  try {
    await handle.sync();
  } catch (error) {
    if (!['EISDIR', 'EINVAL', 'EPERM'].includes(errorCode(error) ?? '')) throw error;
  }
}

function safeTag(tag: string): string {
  return tag.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'call';
}

function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** An error the filesystem reported (it has an errno code): the world's failure, not our bug. */
export function isFsError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && errorCode(error) !== undefined;
}

/**
 * The failure the model reads for a filesystem error about `shownPath`. Anything that is not a
 * filesystem error is our bug and is thrown again.
 */
export function fsFailure(error: unknown, shownPath: string): ToolOutput {
  if (!isFsError(error)) throw error;
  return failure(describeFsError(error, shownPath));
}

export function describeFsError(error: NodeJS.ErrnoException, shownPath: string): string {
  switch (error.code) {
    case 'ENOENT':
      return `${shownPath} does not exist.`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied for ${shownPath}.`;
    case 'EISDIR':
      return `${shownPath} is a directory, not a file.`;
    case 'ENOTDIR':
      return `${shownPath}: a component of the path is a file, not a directory.`;
    case 'ENOSPC':
      return `No space left on the device while writing ${shownPath}.`;
    case 'EROFS':
      return `${shownPath} is on a read-only file system.`;
    case 'ELOOP':
    case 'ESWAPPED':
      return `${shownPath} changed while tole opened it (a symlink was put in its path after the workspace check); refused, nothing read or written outside the workspace. Check the path with list_dir and try again.`;
    case 'ESPECIAL':
      return specialMessage(shownPath);
    case 'EDEEP':
      return `${shownPath} is nested too deeply to delete in one call; delete its deepest directories first.`;
    default:
      return `${shownPath}: ${error.code}: ${error.message}`;
  }
}
