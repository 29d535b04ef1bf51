import type { Dirent } from 'node:fs';
import { lstat, readdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import { formatCount } from '../cap-output';
import type { Tool, ToolContext, ToolOutput } from '../tool';
import { failure, fsFailure, workspacePathOrFailure } from './file-io';

export const LIST_DIR_MAX_ENTRIES = 1000;

const inputSchema = lazySchema((z) =>
  z.strictObject({
    path: z.string().describe('Directory path, relative to the workspace root ("." for the root).'),
  }),
);

export type ListDirInput = z.infer<ReturnType<typeof inputSchema>>;

export const listDirTool: Tool<ListDirInput> = {
  name: 'list_dir',
  description:
    'List a directory in the workspace: entries sorted by name, directories marked with a trailing "/", ' +
    `files with their size in bytes, symlinks with their target. At most ${LIST_DIR_MAX_ENTRIES} entries.`,
  get inputSchema() {
    return inputSchema();
  },
  replay: 'idempotent',
  tier: 'cold',
  declaredRisk: 'ReadOnly',
  assess: () => ({ risk: 'ReadOnly', reason: 'lists a directory' }),
  subject: (input) => input.path,
  execute: listDir,
};

async function listDir(input: ListDirInput, ctx: ToolContext): Promise<ToolOutput> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) return resolved.output;
  const { absolutePath, relativePath } = resolved.path;
  try {
    if (!(await stat(absolutePath)).isDirectory()) {
      return failure(`${relativePath} is a file, not a directory. Use read_file to read it.`);
    }
    const entries = (await readdir(absolutePath, { withFileTypes: true })).sort(byName);
    const shown = entries.slice(0, LIST_DIR_MAX_ENTRIES);
    const lines = await Promise.all(shown.map((entry) => describeEntry(absolutePath, entry)));
    const header = `${relativePath}/ (${formatCount(entries.length)} ${entries.length === 1 ? 'entry' : 'entries'})`;
    const cut =
      entries.length > shown.length
        ? [`[${formatCount(entries.length - shown.length)} more entries not shown; use glob to narrow down]`]
        : [];
    return { ok: true, content: [header, ...lines, ...cut].join('\n') };
  } catch (error) {
    return fsFailure(error, relativePath);
  }
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

async function describeEntry(directory: string, entry: Dirent): Promise<string> {
  const full = path.join(directory, entry.name);
  try {
    if (entry.isDirectory()) return `${entry.name}/`;
    if (entry.isSymbolicLink()) return `${entry.name} -> ${await readlink(full)}`;
    if (entry.isFile()) return `${entry.name}  ${formatCount((await lstat(full)).size)} bytes`;
    return `${entry.name}  (special file)`;
  } catch {
    return `${entry.name}  (vanished or unreadable while listing)`;
  }
}
