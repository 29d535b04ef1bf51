import type { FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import { MODEL_OUTPUT_CAP_BYTES } from '../cap-output';
import type { Tool, ToolContext, ToolOutput } from '../tool';
import {
  failure,
  pathSubject,
  fsFailure,
  looksBinary,
  openFileForReading,
  readStart,
  specialMessage,
  workspacePathOrFailure,
} from './file-io';

export const READ_FILE_DEFAULT_LIMIT_LINES = 2000;
const READ_FILE_MAX_LINE_CHARS = 2000;
/** Numbered lines stop before this many bytes, so the model never gets a middle elided from a file. */
const READ_FILE_BUDGET_BYTES = MODEL_OUTPUT_CAP_BYTES - 1024;

const inputSchema = lazySchema((z) =>
  z.strictObject({
    path: z.string().describe('File path, relative to the workspace root.'),
    offset: z.number().int().min(1).optional().describe('1-based line to start at (default 1).'),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`How many lines to read (default ${READ_FILE_DEFAULT_LIMIT_LINES}).`),
  }),
);

type ReadFileInput = z.infer<ReturnType<typeof inputSchema>>;

interface LinesRead {
  readonly lines: string[];
  /** The last line number read, or the line count when the file ended first. */
  readonly lastLine: number;
  readonly endOfFile: boolean;
}

export const readFileTool: Tool<ReadFileInput> = {
  name: 'read_file',
  description:
    'Read a text file in the workspace. Returns numbered lines ("  12\\tcode"). Use offset (1-based line) ' +
    `and limit to page through long files; at most ${READ_FILE_DEFAULT_LIMIT_LINES} lines are returned by default.`,
  get inputSchema() {
    return inputSchema();
  },
  replay: 'idempotent',
  tier: 'cold',
  declaredRisk: 'ReadOnly',
  assess: () => ({ risk: 'ReadOnly', reason: 'reads a file' }),
  workspaceEffect: { kind: 'none' },
  subject: (input) => input.path,
  resolvedSubject: (input, workspaceRoot) => pathSubject(workspaceRoot, input.path),
  execute: readFile,
};

async function readFile(input: ReadFileInput, ctx: ToolContext): Promise<ToolOutput> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) return resolved.output;
  const { relativePath, found } = resolved.path;
  if (found.kind === 'missing')
    return failure(`${relativePath} does not exist. Use list_dir or glob to find the file.`);
  if (found.kind === 'directory') {
    return failure(`${relativePath} is a directory, not a file. Use list_dir to see what it contains.`);
  }
  if (found.kind !== 'file') return failure(specialMessage(relativePath));
  try {
    const handle = await openFileForReading(resolved.path);
    try {
      if (looksBinary(await readStart(handle))) {
        return failure(`${relativePath} is a binary file; read_file only reads text.`);
      }
      const offset = input.offset ?? 1;
      const read = await readLines(handle, offset, input.limit ?? READ_FILE_DEFAULT_LIMIT_LINES, ctx.signal);
      return present(relativePath, offset, read);
    } finally {
      await handle.close();
    }
  } catch (error) {
    return fsFailure(error, relativePath);
  }
}

/** Streams the open file, keeping lines `offset..offset+limit-1` while they fit the byte budget. */
async function readLines(handle: FileHandle, offset: number, limit: number, signal: AbortSignal): Promise<LinesRead> {
  const stream = handle.createReadStream({ encoding: 'utf8', start: 0, autoClose: false });
  const reader = createInterface({ input: stream, crlfDelay: Infinity });
  const lines: string[] = [];
  let lineNumber = 0;
  let usedBytes = 0;
  try {
    for await (const line of reader) {
      lineNumber += 1;
      if (lineNumber < offset) continue;
      const numbered = numberLine(lineNumber, line);
      const tooMany = lines.length >= limit || usedBytes + Buffer.byteLength(numbered) > READ_FILE_BUDGET_BYTES;
      if (tooMany || signal.aborted) return { lines, lastLine: lineNumber - 1, endOfFile: false };
      lines.push(numbered);
      usedBytes += Buffer.byteLength(numbered) + 1;
    }
  } finally {
    reader.close();
    stream.destroy();
  }
  return { lines, lastLine: lineNumber, endOfFile: true };
}

function numberLine(lineNumber: number, line: string): string {
  const text =
    line.length > READ_FILE_MAX_LINE_CHARS
      ? `${line.slice(0, READ_FILE_MAX_LINE_CHARS)} [... line cut: ${line.length} characters]`
      : line;
  return `${String(lineNumber).padStart(6)}\t${text}`;
}

function present(relativePath: string, offset: number, read: LinesRead): ToolOutput {
  if (read.endOfFile && read.lastLine === 0) return { ok: true, content: `${relativePath} is empty.` };
  if (read.endOfFile && offset > read.lastLine) {
    return failure(`offset ${offset} is past the end of ${relativePath}, which has ${read.lastLine} lines.`);
  }
  const first = offset;
  const last = first + read.lines.length - 1;
  const note = read.endOfFile
    ? `[${relativePath}: lines ${first}-${last} of ${read.lastLine}, end of file]`
    : `[${relativePath}: lines ${first}-${last} shown; the file continues. ` +
      `Read more with read_file {"path": ${JSON.stringify(relativePath)}, "offset": ${last + 1}}]`;
  return { ok: true, content: `${read.lines.join('\n')}\n${note}` };
}
