import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import { capOutput, formatCount } from '../cap-output';
import type { GuardVerdict, Tool, ToolContext, ToolDisplay, ToolOutput } from '../tool';
import type { WorkspacePath } from '../workspace';
import {
  failure,
  namedWorkspacePaths,
  pathSubject,
  fsFailure,
  hashFileIfPresent,
  PrepareError,
  readTextFile,
  sha256Hex,
  specialMessage,
  type TextFileRead,
  workspacePathOrFailure,
  writeFileDurably,
} from './file-io';
import { toolFs } from '../tool-fs';
import { type AbsentPath, absenceVerdict, recordAbsence } from './absent-path';
import { writePreview } from './change-previews';
import { unifiedDiff } from './line-diff';

const inputSchema = lazySchema((z) =>
  z.strictObject({
    path: z.string().min(1).describe('File path, relative to the workspace root. Missing directories are created.'),
    content: z.string().describe('The complete new content of the file.'),
  }),
);

export type WriteFileInput = z.infer<ReturnType<typeof inputSchema>>;

/**
 * Stored with the intent of a write_file call: the hash the file will have once the effect
 * happened, and the hash it had when the call was prepared (null: there was no file). With a
 * file there, `priorStamp` names that very file (inode and change time): the write puts a new
 * file in its place, so the old content under another stamp means it was written since, and put
 * back (absent from intents of an older tole). With no file there, `priorAbsence` records its
 * folder as it was (see `AbsentPath`): a file this call made and the user deleted since leaves
 * nothing else to recognise it by.
 */
interface PreparedFileWrite {
  readonly sha256: string;
  readonly priorSha256: string | null;
  readonly priorStamp?: string | null;
  readonly priorAbsence?: AbsentPath | null;
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
  resolvedSubject: (input, workspaceRoot) => pathSubject(workspaceRoot, input.path),
  workspaceEffect: { kind: 'paths', paths: (input, workspaceRoot) => namedWorkspacePaths(workspaceRoot, input.path) },
  preview: (input, workspaceRoot) => writePreview(input, workspaceRoot),
  prepare: prepareWrite,
  guard: (input, prepared, ctx) => writeHappened(input.path, prepared, ctx),
  execute: writeFile,
};

/** Throws `PrepareError` when the write cannot apply (the path leaves the workspace, or is a directory). */
async function prepareWrite(input: WriteFileInput, ctx: ToolContext): Promise<PreparedFileWrite> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) throw new PrepareError(resolved.output.content);
  const refusal = writeRefusal(resolved.path);
  if (refusal !== null) throw new PrepareError(refusal);
  const priorSha256 = await hashFileIfPresent(resolved.path);
  return {
    sha256: sha256Hex(input.content),
    priorSha256,
    priorStamp: await fileStamp(resolved.path),
    priorAbsence: await recordAbsence(resolved.path),
  };
}

/** The inode and change time (ns) of the regular file at `target`, or null when there is none. */
async function fileStamp(target: WorkspacePath): Promise<string | null> {
  if (target.found.kind !== 'file') return null;
  try {
    const stats = await toolFs().lstat(target.absolutePath, { bigint: true });
    return stats.isFile() ? `${stats.ino}:${stats.ctimeNs}` : null;
  } catch {
    return null;
  }
}

/** Why a checked path cannot be written whole, or null when it can (a regular file, or nothing yet). */
function writeRefusal(target: WorkspacePath): string | null {
  if (target.found.kind === 'directory') return directoryMessage(target.relativePath);
  if (target.found.kind === 'special' || target.found.kind === 'symlink') return specialMessage(target.relativePath);
  return null;
}

function directoryMessage(relativePath: string): string {
  return `${relativePath} is a directory; write_file needs a file path.`;
}

/**
 * Done when the file holds exactly the content the call writes; not done when it is still as it
 * was when the call was prepared; unknown when it is neither (someone else changed it: writing
 * again would overwrite their change). A path that leaves the workspace is "not done": running
 * it again fails the same way. A file missing then and now is judged by `absenceVerdict`: missing
 * again may be this call's file, deleted since.
 */
async function writeHappened(requested: string, prepared: unknown, ctx: ToolContext): Promise<GuardVerdict> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, requested);
  if (!resolved.ok) return false;
  const sha256 = (prepared as { sha256?: unknown } | null)?.sha256;
  if (typeof sha256 !== 'string') return { unknown: 'the intent records nothing to recognise the write by' };
  const now = await hashFileIfPresent(resolved.path);
  if (now === sha256) return true;
  if (!isPreparedWrite(prepared)) {
    return {
      unknown:
        'the intent (from an older tole) does not record what the file held before, so a rewrite cannot be ruled out',
    };
  }
  if (now === null && prepared.priorSha256 === null) return absentAgain(resolved.path, prepared, ctx.callId);
  if (now === prepared.priorSha256) {
    // Held before, but by another file than then: the write may have happened and been undone
    // (a revert, git checkout); writing again would undo that undo.
    if (typeof prepared.priorStamp !== 'string' || (await fileStamp(resolved.path)) === prepared.priorStamp)
      return false;
    return {
      unknown: `${resolved.path.relativePath} holds what it held when the call was prepared, but not as the same file: it was written since (by this call, then put back?)`,
    };
  }
  return {
    unknown: `${resolved.path.relativePath} changed since the call was prepared: it holds neither the content written nor what it held before`,
  };
}

/**
 * The guard's verdict when no file tole can read is at the path, as when the call was prepared.
 * Something there that is not a regular file (a directory, a FIFO) makes the call fail again,
 * writing nothing; a file tole cannot read is not done only while it is the very file that was
 * there (unreadable then too), else it may be this call's own (made, then its mode changed).
 */
async function absentAgain(target: WorkspacePath, prepared: PreparedFileWrite, callId: string): Promise<GuardVerdict> {
  if (target.found.kind === 'file') {
    if (typeof prepared.priorStamp === 'string' && (await fileStamp(target)) === prepared.priorStamp) return false;
    return {
      unknown: `${target.relativePath} is a file tole cannot read: it may be the one this call wrote`,
    };
  }
  if (target.found.kind !== 'missing') return false;
  return absenceVerdict(target, prepared.priorAbsence, callId);
}

function isPreparedWrite(prepared: unknown): prepared is PreparedFileWrite {
  const { sha256, priorSha256 } = (prepared ?? {}) as Partial<Record<keyof PreparedFileWrite, unknown>>;
  return typeof sha256 === 'string' && (priorSha256 === null || typeof priorSha256 === 'string');
}

async function writeFile(input: WriteFileInput, ctx: ToolContext): Promise<ToolOutput> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) return resolved.output;
  const { relativePath } = resolved.path;
  const refusal = writeRefusal(resolved.path);
  if (refusal !== null) return failure(refusal);
  try {
    const before = await readTextFile(resolved.path);
    await writeFileDurably(resolved.path, input.content, ctx.callId);
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
