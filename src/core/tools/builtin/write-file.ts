import { stat } from 'node:fs/promises';
import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import { capOutput, formatCount } from '../cap-output';
import type { Tool, ToolContext, ToolDisplay, ToolOutput } from '../tool';
import {
  failure,
  fsFailure,
  hashFileIfPresent,
  PrepareError,
  readTextFile,
  sha256Hex,
  type TextFileRead,
  workspacePathOrFailure,
  writeFileDurably,
} from './file-io';
import { unifiedDiff } from './line-diff';

const inputSchema = lazySchema((z) =>
  z.strictObject({
    path: z.string().min(1).describe('File path, relative to the workspace root. Missing directories are created.'),
    content: z.string().describe('The complete new content of the file.'),
  }),
);

export type WriteFileInput = z.infer<ReturnType<typeof inputSchema>>;

/** Stored with the intent of a file-writing call: the hash the file will have once the effect happened. */
export interface PreparedFileWrite {
  readonly sha256: string;
}

export const writeFileTool: Tool<WriteFileInput> = {
  name: 'write_file',
  description:
    'Create a file or replace its whole content. Creates missing parent directories. ' +
    'To change part of an existing file, prefer edit_file.',
  get inputSchema() {
    return inputSchema();
  },
  replay: 'guarded',
  tier: 'hot',
  declaredRisk: 'Write',
  assess: (input) => ({ risk: 'Write', reason: `writes ${input.path}` }),
  subject: (input) => input.path,
  prepare: prepareWrite,
  guard: (input, prepared, ctx) => fileHasPreparedHash(input.path, prepared, ctx),
  execute: writeFile,
};

/** Throws `PrepareError` when the write cannot apply (the path leaves the workspace, or is a directory). */
async function prepareWrite(input: WriteFileInput, ctx: ToolContext): Promise<PreparedFileWrite> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) throw new PrepareError(resolved.output.content);
  const isDirectory = await stat(resolved.path.absolutePath).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
  if (isDirectory) throw new PrepareError(directoryMessage(resolved.path.relativePath));
  return { sha256: sha256Hex(input.content) };
}

function directoryMessage(relativePath: string): string {
  return `${relativePath} is a directory; write_file needs a file path.`;
}

/** True when the file at `requested` already holds exactly the content `prepared` describes. */
export async function fileHasPreparedHash(requested: string, prepared: unknown, ctx: ToolContext): Promise<boolean> {
  if (!isPreparedHash(prepared)) return false;
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, requested);
  if (!resolved.ok) return false;
  return (await hashFileIfPresent(resolved.path.absolutePath)) === prepared.sha256;
}

function isPreparedHash(prepared: unknown): prepared is PreparedFileWrite {
  return (
    typeof prepared === 'object' && prepared !== null && typeof (prepared as { sha256?: unknown }).sha256 === 'string'
  );
}

async function writeFile(input: WriteFileInput, ctx: ToolContext): Promise<ToolOutput> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) return resolved.output;
  const { absolutePath, relativePath } = resolved.path;
  try {
    const before = await readTextFile(absolutePath, relativePath);
    if (before.kind === 'directory') return failure(directoryMessage(relativePath));
    await writeFileDurably(absolutePath, input.content, ctx.callId);
    const verb = before.kind === 'missing' ? 'Created' : 'Wrote';
    const size = `${formatCount(Buffer.byteLength(input.content))} bytes, ${formatCount(lineCount(input.content))} lines`;
    return {
      ok: true,
      content: `${verb} ${relativePath} (${size}).`,
      display: changeDisplay(relativePath, before, input.content),
    };
  } catch (error) {
    return fsFailure(error, relativePath);
  }
}

/** What the screen shows for a file change: a unified diff, or a summary when there is no text to diff. */
export function changeDisplay(relativePath: string, before: TextFileRead, after: string): ToolDisplay {
  if (before.kind === 'refused' || before.kind === 'directory')
    return { kind: 'text', text: `Replaced ${relativePath}.` };
  const diff = unifiedDiff(relativePath, before.kind === 'missing' ? null : before.text, after);
  if (diff === '') return { kind: 'text', text: `${relativePath}: content unchanged.` };
  return { kind: 'diff', path: relativePath, diff: capOutput(diff) };
}

export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
