import type { Dirent } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import { formatCount } from '../cap-output';
import type { Tool, ToolContext, ToolOutput } from '../tool';
import { type CheckedDirectory, directoryItself, inDirectory, openDirectoryChecked } from './checked-open';
import { failure, pathSubject, fsFailure, specialMessage, workspacePathOrFailure } from './file-io';

const LIST_DIR_MAX_ENTRIES = 1000;

const inputSchema = lazySchema((z) =>
  z.strictObject({
    path: z.string().describe('Directory path, relative to the workspace root ("." for the root).'),
  }),
);

type ListDirInput = z.infer<ReturnType<typeof inputSchema>>;

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
  workspaceEffect: { kind: 'none' },
  subject: (input) => input.path,
  resolvedSubject: (input, workspaceRoot) => pathSubject(workspaceRoot, input.path),
  execute: listDir,
};

async function listDir(input: ListDirInput, ctx: ToolContext): Promise<ToolOutput> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) return resolved.output;
  const { absolutePath, relativePath, found } = resolved.path;
  if (found.kind === 'missing') return failure(`${relativePath} does not exist. List its parent to see what is there.`);
  if (found.kind === 'file') return failure(`${relativePath} is a file, not a directory. Use read_file to read it.`);
  if (found.kind !== 'directory') return failure(specialMessage(relativePath));
  try {
    const directory = await openDirectoryChecked(absolutePath, absolutePath, found);
    try {
      return { ok: true, content: await listing(directory, relativePath) };
    } finally {
      await directory.handle.close();
    }
  } catch (error) {
    return fsFailure(error, relativePath);
  }
}

async function listing(directory: CheckedDirectory, relativePath: string): Promise<string> {
  const entries = (await readdir(directoryItself(directory), { withFileTypes: true })).sort(byName);
  const shown = entries.slice(0, LIST_DIR_MAX_ENTRIES);
  const lines: string[] = [];
  for (const entry of shown) lines.push(await describeEntry(directory, entry));
  const header = `${relativePath}/ (${formatCount(entries.length)} ${entries.length === 1 ? 'entry' : 'entries'})`;
  const cut =
    entries.length > shown.length
      ? [`[${formatCount(entries.length - shown.length)} more entries not shown; use glob to narrow down]`]
      : [];
  return [header, ...lines, ...cut].join('\n');
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** One line per entry, from lstat through the directory's descriptor: nothing is followed or opened. */
async function describeEntry(directory: CheckedDirectory, entry: Dirent): Promise<string> {
  const at = inDirectory(directory, entry.name);
  try {
    if (entry.isDirectory()) return `${entry.name}/`;
    if (entry.isSymbolicLink()) return `${entry.name} -> ${await readlink(at)}`;
    if (entry.isFile()) return `${entry.name}  ${formatCount((await lstat(at)).size)} bytes`;
    return `${entry.name}  (${specialKind(entry)}, not a regular file)`;
  } catch {
    return `${entry.name}  (vanished or unreadable while listing)`;
  }
}

function specialKind(entry: Dirent): string {
  if (entry.isFIFO()) return 'FIFO';
  if (entry.isSocket()) return 'socket';
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return 'device';
  return 'unknown kind';
}
