import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ToolOutput } from '../tool';
import { resolveWorkspacePath, type WorkspacePath } from '../workspace';

/** How much of a file's start is looked at to decide whether it is binary. */
export const BINARY_SNIFF_BYTES = 8 * 1024;
/** Files larger than this are not loaded whole for editing or diffing. */
export const MAX_TEXT_FILE_BYTES = 16 * 1024 * 1024;

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
): Promise<{ ok: true; path: WorkspacePath } | { ok: false; output: ToolOutput }> {
  const resolved = await resolveWorkspacePath(workspaceRoot, requested);
  return resolved.ok ? resolved : { ok: false, output: failure(resolved.error.message) };
}

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The SHA-256 of a file's bytes, streamed; null when it does not exist or is not a regular file. */
export async function hashFileIfPresent(absolutePath: string): Promise<string | null> {
  try {
    if (!(await stat(absolutePath)).isFile()) return null;
    const hash = createHash('sha256');
    const handle = await openResolved(absolutePath, constants.O_RDONLY);
    for await (const chunk of handle.createReadStream()) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch (error) {
    if (isFsError(error)) return null;
    throw error;
  }
}

/**
 * Opens a path `resolveWorkspacePath` resolved (every symlink in it already followed and checked)
 * so that a symlink swapped in since cannot lead outside the workspace: the last component is
 * opened without following a link (O_NOFOLLOW: a link there now fails with ELOOP), and where the
 * system names what a descriptor opened (`/proc/self/fd`), that must be the path that was checked
 * (a directory on the way swapped for a link fails with ESWAPPED). Without /proc only the last
 * component is guarded.
 */
export async function openResolved(absolutePath: string, flags: number, mode?: number): Promise<FileHandle> {
  const handle = await open(absolutePath, flags | constants.O_NOFOLLOW, mode);
  try {
    const opened = await openedPath(handle);
    if (opened !== null && opened !== absolutePath) {
      throw Object.assign(new Error(`${absolutePath} led to ${opened} when opened`), { code: 'ESWAPPED' });
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function openedPath(handle: FileHandle): Promise<string | null> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return null;
  }
}

/** A NUL byte in the first `BINARY_SNIFF_BYTES` marks a file as binary (what git and grep do). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

export async function readStart(absolutePath: string, length: number = BINARY_SNIFF_BYTES): Promise<Buffer> {
  const handle = await openResolved(absolutePath, constants.O_RDONLY);
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export type TextFileRead =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'directory' }
  | { readonly kind: 'refused'; readonly reason: string };

/** A whole text file, or why it cannot be treated as one (missing, a directory, binary, too large). */
export async function readTextFile(absolutePath: string, shownPath: string): Promise<TextFileRead> {
  let size: number;
  try {
    const stats = await stat(absolutePath);
    if (stats.isDirectory()) return { kind: 'directory' };
    size = stats.size;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  if (size > MAX_TEXT_FILE_BYTES) {
    return {
      kind: 'refused',
      reason: `${shownPath} is ${size} bytes, more than the ${MAX_TEXT_FILE_BYTES}-byte limit for editing.`,
    };
  }
  const bytes = await readAll(absolutePath);
  if (looksBinary(bytes)) return { kind: 'refused', reason: `${shownPath} is a binary file.` };
  return { kind: 'text', text: bytes.toString('utf8') };
}

async function readAll(absolutePath: string): Promise<Buffer> {
  const handle = await openResolved(absolutePath, constants.O_RDONLY);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `target` so that a crash leaves either the old or the new content, never a torn
 * file: a temporary file in the same directory is written and fsynced, renamed over the target,
 * and the directory is fsynced. Missing parent directories are created; an existing file's
 * permission bits are kept. `tag` makes the temporary name unique to the call.
 */
export async function writeFileDurably(target: string, content: string, tag: string): Promise<void> {
  const directory = path.dirname(target);
  await mkdir(directory, { recursive: true });
  const mode = await existingMode(target);
  const temporary = path.join(directory, `.${path.basename(target).slice(0, 100)}.${safeTag(tag)}.tole-tmp`);
  try {
    // A new file (O_EXCL), in the directory that was checked: a directory swapped for a link
    // since then fails here, before anything is written or renamed.
    await rm(temporary, { force: true }); // one a crash left behind on an earlier run of this call
    const handle = await openResolved(
      temporary,
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
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

async function existingMode(target: string): Promise<number | null> {
  try {
    const stats = await lstat(target);
    return stats.isFile() ? stats.mode & 0o7777 : null;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Makes a rename durable. Platforms that cannot fsync a directory say so with these codes. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } catch (error) {
    if (!['EISDIR', 'EINVAL', 'EPERM'].includes(errorCode(error) ?? '')) throw error;
  } finally {
    await handle.close();
  }
}

function safeTag(tag: string): string {
  return tag.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'call';
}

export function errorCode(error: unknown): string | undefined {
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
      return `${shownPath} changed while tole opened it (a symlink was put in its path after the workspace check); refused, nothing read or written outside the workspace.`;
    default:
      return `${shownPath}: ${error.code}: ${error.message}`;
  }
}
