import { toolFs } from '../tool-fs';
import path from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import type { GuardVerdict, Tool, ToolContext, ToolOutput } from '../tool';
import { type ResolveOptions, resolveWorkspacePath } from '../workspace';
import { deletePreview } from './change-previews';
import { openDirectoryChecked, removeTree } from './checked-open';
import {
  failure,
  namedWorkspacePaths,
  fsFailure,
  hashFileIfPresent,
  PrepareError,
  pathSubject,
  syncOpenDirectory,
  workspacePathOrFailure,
} from './file-io';

/** delete_path removes a symlink named last, never what it points to. */
const KEEP_LAST_LINK: ResolveOptions = { followLastSymlink: false };

const inputSchema = lazySchema((z) =>
  z.strictObject({
    path: z
      .string()
      .min(1)
      .describe(
        'File or directory to delete, relative to the workspace root. Directories are deleted with everything in them.',
      ),
  }),
);

type DeletePathInput = z.infer<ReturnType<typeof inputSchema>>;

export const deletePathTool: Tool<DeletePathInput> = {
  name: 'delete_path',
  description:
    'Delete a file, a symlink, or a directory with everything in it, inside the workspace. ' +
    'Always needs the user to approve it interactively.',
  get inputSchema() {
    return inputSchema();
  },
  replay: 'guarded',
  tier: 'hot',
  declaredRisk: 'Destructive',
  assess: (input) => ({
    risk: 'Destructive',
    reason: `deletes ${input.path} (a directory is removed with everything in it)`,
  }),
  subject: (input) => input.path,
  resolvedSubject: (input, workspaceRoot) => pathSubject(workspaceRoot, input.path, KEEP_LAST_LINK),
  workspaceEffect: {
    kind: 'paths',
    paths: (input, workspaceRoot) => namedWorkspacePaths(workspaceRoot, input.path, KEEP_LAST_LINK),
  },
  preview: (input, workspaceRoot) => deletePreview(input.path, workspaceRoot, KEEP_LAST_LINK),
  prepare: prepareDelete,
  guard: deleteHappened,
  execute: deletePath,
};

/**
 * Stored with a delete_path intent: what the path was when the call was prepared (a file with
 * its hash), so that a resume can tell a deletion that has not happened from something new put
 * in its place.
 */
type PreparedDelete =
  | { readonly kind: 'file'; readonly sha256: string; readonly ino?: string }
  | { readonly kind: 'directory' | 'symlink' | 'other'; readonly ino?: string }
  | { readonly kind: 'missing' };

/** What is there now; a path that leaves the workspace fails here, before anyone is asked to approve it. */
async function prepareDelete(input: DeletePathInput, ctx: ToolContext): Promise<PreparedDelete> {
  const resolved = await resolveWorkspacePath(ctx.workspaceRoot, input.path, KEEP_LAST_LINK);
  if (!resolved.ok) throw new PrepareError(resolved.error.message);
  return whatIsThere(input.path, ctx);
}

async function whatIsThere(requested: string, ctx: ToolContext): Promise<PreparedDelete> {
  const resolved = await resolveWorkspacePath(ctx.workspaceRoot, requested, KEEP_LAST_LINK);
  if (!resolved.ok) return { kind: 'missing' };
  const { found } = resolved.path;
  if (found.kind === 'missing') return { kind: 'missing' };
  const ino = await birthOf(resolved.path.absolutePath, found.ino);
  if (found.kind === 'directory' || found.kind === 'symlink') return { kind: found.kind, ino };
  if (found.kind === 'special') return { kind: 'other', ino };
  const sha256 = await hashFileIfPresent(resolved.path);
  return sha256 === null ? { kind: 'other', ino } : { kind: 'file', sha256, ino };
}

/**
 * Which one is at the path: its inode number and birth time. A path deleted and put back (git
 * checkout, cp -r, a restore) is a new inode, though its number may be the freed one's again; a
 * directory being emptied keeps both. Without a birth time (a file system that keeps none), the
 * number alone.
 */
async function birthOf(absolutePath: string, ino: bigint): Promise<string> {
  try {
    const stats = await toolFs().lstat(absolutePath, { bigint: true });
    return `${stats.ino}:${stats.birthtimeNs}`;
  } catch {
    return String(ino);
  }
}

/**
 * Done when the path is gone (and was there when the call was prepared); not done when what was
 * there still is (the same file, or a directory a deletion may have emptied part of); unknown
 * when something else stands there now, which a second deletion would destroy.
 */
async function deleteHappened(input: DeletePathInput, prepared: unknown, ctx: ToolContext): Promise<GuardVerdict> {
  // A path that leaves the workspace: running it again fails the same way.
  if (!(await resolveWorkspacePath(ctx.workspaceRoot, input.path, KEEP_LAST_LINK)).ok) return false;
  const now = await whatIsThere(input.path, ctx);
  const then = isPreparedDelete(prepared) ? prepared : null;
  if (now.kind === 'missing') return then?.kind !== 'missing';
  if (then === null) return false;
  if (then.kind === 'missing')
    return { unknown: `${input.path} did not exist when the call was prepared and does now` };
  const same = now.kind === then.kind && (now.kind !== 'file' || then.kind !== 'file' || now.sha256 === then.sha256);
  // The same kind and content, but not the same one: deleted, then put back (an intent of an older tole records no inode).
  if (same && 'ino' in then && then.ino !== undefined && 'ino' in now && now.ino !== then.ino) {
    return {
      unknown: `${input.path} is as it was when the call was prepared, but not the same one: it was deleted since (by this call, then put back?)`,
    };
  }
  if (same) return false;
  return { unknown: `${input.path} is not what it was when the call was prepared: something else stands there now` };
}

function isPreparedDelete(prepared: unknown): prepared is PreparedDelete {
  const { kind, sha256 } = (prepared ?? {}) as { kind?: unknown; sha256?: unknown };
  if (kind === 'file') return typeof sha256 === 'string';
  return kind === 'directory' || kind === 'symlink' || kind === 'other' || kind === 'missing';
}

async function deletePath(input: DeletePathInput, ctx: ToolContext): Promise<ToolOutput> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path, KEEP_LAST_LINK);
  if (!resolved.ok) return resolved.output;
  const { relativePath, found, existingDirectory, absolutePath } = resolved.path;
  if (relativePath === '.')
    return failure('Refusing to delete the workspace root itself. Delete the entries inside it one by one.');
  if (found.kind === 'missing') return failure(`${relativePath} does not exist; nothing to delete.`);
  try {
    const parent = await openDirectoryChecked(
      existingDirectory.absolutePath,
      existingDirectory.absolutePath,
      existingDirectory,
    );
    try {
      await removeTree(parent, path.basename(absolutePath), found);
      await syncOpenDirectory(parent.handle);
    } finally {
      await parent.handle.close();
    }
  } catch (error) {
    return fsFailure(error, relativePath);
  }
  return { ok: true, content: deletedText(found.kind, relativePath) };
}

function deletedText(kind: 'file' | 'directory' | 'symlink' | 'special', relativePath: string): string {
  switch (kind) {
    case 'directory':
      return `Deleted the directory ${relativePath} and everything in it.`;
    case 'symlink':
      return `Deleted the symlink ${relativePath}; whatever it pointed to was left alone.`;
    case 'file':
    case 'special':
      return `Deleted ${relativePath}.`;
  }
}
