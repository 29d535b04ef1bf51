import { lstat, rm } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import type { Tool, ToolContext, ToolOutput } from '../tool';
import { resolveWorkspacePath } from '../workspace';
import { errorCode, failure, fsFailure, workspacePathOrFailure } from './file-io';

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

export type DeletePathInput = z.infer<ReturnType<typeof inputSchema>>;

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
  guard: (input, _prepared, ctx) => pathIsGone(input.path, ctx),
  execute: deletePath,
};

/** The effect already happened when the path no longer exists. */
async function pathIsGone(requested: string, ctx: ToolContext): Promise<boolean> {
  const resolved = await resolveWorkspacePath(ctx.workspaceRoot, requested);
  if (!resolved.ok) return false;
  try {
    await lstat(resolved.path.absolutePath);
    return false;
  } catch (error) {
    return errorCode(error) === 'ENOENT';
  }
}

async function deletePath(input: DeletePathInput, ctx: ToolContext): Promise<ToolOutput> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) return resolved.output;
  const { absolutePath, relativePath } = resolved.path;
  if (relativePath === '.')
    return failure('Refusing to delete the workspace root itself. Delete the entries inside it one by one.');
  try {
    const link = await symlinkItself(ctx.workspaceRoot, input.path);
    if (link !== null) {
      await rm(link, { force: false });
      return { ok: true, content: `Deleted the symlink ${input.path}; its target ${relativePath} was left alone.` };
    }
    const stats = await lstat(absolutePath);
    await rm(absolutePath, { recursive: true, force: false });
    const what = stats.isDirectory() ? `the directory ${relativePath} and everything in it` : `${relativePath}`;
    return { ok: true, content: `Deleted ${what}.` };
  } catch (error) {
    return fsFailure(error, relativePath);
  }
}

/**
 * When the last component of `requested` is itself a symlink (its target already checked to be
 * inside the workspace), the link is what gets deleted, never the directory it points to.
 */
async function symlinkItself(workspaceRoot: string, requested: string): Promise<string | null> {
  const name = path.basename(requested);
  if (name === '' || name === '.' || name === '..') return null;
  const parent = await resolveWorkspacePath(workspaceRoot, path.dirname(requested));
  if (!parent.ok) return null;
  const candidate = path.join(parent.path.absolutePath, name);
  try {
    return (await lstat(candidate)).isSymbolicLink() ? candidate : null;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}
