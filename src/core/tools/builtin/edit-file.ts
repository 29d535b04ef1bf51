import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import type { GuardVerdict, Tool, ToolContext, ToolOutput } from '../tool';
import type { WorkspacePath } from '../workspace';
import {
  failure,
  pathSubject,
  fsFailure,
  PrepareError,
  readTextFile,
  sha256Hex,
  workspacePathOrFailure,
  writeFileDurably,
} from './file-io';
import { editPreview } from './change-previews';
import { editVerdict, isPreparedEdit, type PreparedEdit, prepareEditMarks } from './edit-guard';
import { changeDisplay } from './write-file';

const inputSchema = lazySchema((z) =>
  z.strictObject({
    path: z.string().min(1).describe('File path, relative to the workspace root.'),
    old_text: z
      .string()
      .describe('Exact text to replace, including whitespace; it must occur exactly once in the file.'),
    new_text: z.string().describe('Text to put in its place.'),
  }),
);

export type EditFileInput = z.infer<ReturnType<typeof inputSchema>>;

export type PlannedEdit =
  | {
      readonly ok: true;
      readonly relativePath: string;
      readonly target: WorkspacePath;
      readonly before: string;
      readonly after: string;
      /** Where old_text stood in `before`. */
      readonly at: number;
    }
  | { readonly ok: false; readonly message: string };

export const editFileTool: Tool<EditFileInput> = {
  name: 'edit_file',
  description:
    'Replace one exact occurrence of old_text with new_text in a file. old_text must match the file ' +
    'exactly (whitespace and indentation included) and occur exactly once: include surrounding lines to make it unique.',
  get inputSchema() {
    return inputSchema();
  },
  replay: 'guarded',
  tier: 'hot',
  declaredRisk: 'Write',
  assess: (input) => ({ risk: 'Write', reason: `edits ${input.path}` }),
  subject: (input) => input.path,
  resolvedSubject: (input, workspaceRoot) => pathSubject(workspaceRoot, input.path),
  preview: (input, workspaceRoot) => editPreview(input, workspaceRoot),
  prepare: prepareEdit,
  guard: editHappened,
  execute: editFile,
};

/** What the edit will produce (see `PreparedEdit`); throws `PrepareError` (the same message `execute` gives) when it cannot apply. */
async function prepareEdit(input: EditFileInput, ctx: ToolContext): Promise<PreparedEdit> {
  const plan = await planEdit(input, ctx);
  if (!plan.ok) throw new PrepareError(plan.message);
  return prepareEditMarks(plan.before, plan.at, input.old_text, input.new_text);
}

/**
 * Whether the prepared edit is in the file as it is now (`editVerdict`). A path that leaves the
 * workspace is "not done": running it again fails the same way. An intent recorded before the
 * edit's surroundings were kept holds only the whole file's hash: anything but that file is unknown.
 */
async function editHappened(input: EditFileInput, prepared: unknown, ctx: ToolContext): Promise<GuardVerdict> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) return false;
  const read = await readTextFile(resolved.path);
  if (read.kind !== 'text') return { unknown: `${resolved.path.relativePath} is no longer a text file tole can read` };
  if (isPreparedEdit(prepared)) return editVerdict(read.text, input.old_text, input.new_text, prepared);
  if (isPreparedHash(prepared) && sha256Hex(read.text) === prepared.sha256) return true;
  return { unknown: 'the intent records too little about the edit to recognise it in the file as it is now' };
}

function isPreparedHash(prepared: unknown): prepared is { readonly sha256: string } {
  return typeof (prepared as { sha256?: unknown } | null)?.sha256 === 'string';
}

async function editFile(input: EditFileInput, ctx: ToolContext): Promise<ToolOutput> {
  const plan = await planEdit(input, ctx);
  if (!plan.ok) return failure(plan.message);
  try {
    await writeFileDurably(plan.target, plan.after, ctx.callId);
  } catch (error) {
    return fsFailure(error, plan.relativePath);
  }
  return {
    ok: true,
    content: `Edited ${plan.relativePath}: replaced 1 occurrence.`,
    display: changeDisplay(plan.relativePath, { kind: 'text', text: plan.before }, plan.after),
  };
}

/** Reads the file and applies the edit in memory, or says why it cannot apply. Never throws for the world's failures. */
export async function planEdit(input: EditFileInput, ctx: Pick<ToolContext, 'workspaceRoot'>): Promise<PlannedEdit> {
  if (input.old_text === '')
    return { ok: false, message: 'old_text is empty. To create a file or replace all of it, use write_file.' };
  if (input.old_text === input.new_text)
    return { ok: false, message: 'old_text and new_text are identical: nothing would change.' };
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) return { ok: false, message: resolved.output.content };
  const { relativePath } = resolved.path;
  let read: Awaited<ReturnType<typeof readTextFile>>;
  try {
    read = await readTextFile(resolved.path);
  } catch (error) {
    return { ok: false, message: fsFailure(error, relativePath).content };
  }
  if (read.kind === 'missing')
    return { ok: false, message: `${relativePath} does not exist. To create it, use write_file.` };
  if (read.kind === 'directory') return { ok: false, message: `${relativePath} is a directory, not a file.` };
  if (read.kind === 'refused') return { ok: false, message: `${read.reason} edit_file only edits text files.` };
  const positions = occurrences(read.text, input.old_text);
  if (positions.length === 0) {
    return {
      ok: false,
      message: `old_text was not found in ${relativePath}. Read the file again and copy the text exactly, whitespace included.`,
    };
  }
  if (positions.length > 1) {
    return {
      ok: false,
      message: `old_text occurs ${positions.length} times in ${relativePath} (at lines ${lineNumbers(read.text, positions).join(', ')}); it must occur exactly once. Include more surrounding lines to make it unique.`,
    };
  }
  const at = positions[0];
  const after = read.text.slice(0, at) + input.new_text + read.text.slice(at + input.old_text.length);
  return { ok: true, relativePath, target: resolved.path, before: read.text, after, at };
}

/** Every index where `needle` starts, overlapping ones included (`aa` occurs twice in `aaa`). */
export function occurrences(text: string, needle: string): number[] {
  const positions: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) positions.push(index);
  return positions;
}

function lineNumbers(text: string, positions: readonly number[]): string[] {
  const shown = positions.slice(0, 20).map((position) => String(text.slice(0, position).split('\n').length));
  return positions.length > shown.length ? [...shown, '...'] : shown;
}
