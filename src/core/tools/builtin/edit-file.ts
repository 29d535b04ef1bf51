import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import type { GuardVerdict, Tool, ToolContext, ToolOutput } from '../tool';
import {
  failure,
  fileIdentity,
  namedWorkspacePaths,
  pathSubject,
  fsFailure,
  PrepareError,
  readTextFile,
  sha256Hex,
  workspacePathOrFailure,
  writeFileDurably,
} from './file-io';
import { editPreview } from './change-previews';
import { planEdit } from './edit-plan';
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
  workspaceEffect: { kind: 'paths', paths: (input, workspaceRoot) => namedWorkspacePaths(workspaceRoot, input.path) },
  preview: (input, workspaceRoot) => editPreview(input, workspaceRoot),
  prepare: prepareEdit,
  guard: editHappened,
  execute: editFile,
};

/**
 * What the edit will produce (see `PreparedEdit`) and which file it will replace (`priorFile`,
 * see `fileIdentity`); throws `PrepareError` (the same message `execute` gives) when it cannot apply.
 */
async function prepareEdit(
  input: EditFileInput,
  ctx: ToolContext,
): Promise<PreparedEdit & { priorFile: string | null }> {
  const plan = await planEdit(input, ctx);
  if (!plan.ok) throw new PrepareError(plan.message);
  const marks = prepareEditMarks(plan.before, plan.at, input.old_text, input.new_text);
  return { ...marks, priorFile: await fileIdentity(plan.target) };
}

/**
 * Whether the prepared edit is in the file as it is now (`editVerdict`). A path that leaves the
 * workspace is "not done": running it again fails the same way. An intent recorded before the
 * edit's surroundings were kept holds only the whole file's hash: anything but that file is unknown.
 * The old text standing in its context is "not done" only while the file is the one the edit
 * would have replaced (`priorFile`; edits in place by others keep it): another file there may be
 * this edit's, with the edit undone since (a revert, git checkout), and running it again would
 * undo the undo, so that is unknown; so is an editor's save by rename meanwhile (the safe side).
 * An intent of an older tole records no `priorFile`: judged by the text alone, as before.
 */
async function editHappened(input: EditFileInput, prepared: unknown, ctx: ToolContext): Promise<GuardVerdict> {
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path);
  if (!resolved.ok) return false;
  const read = await readTextFile(resolved.path);
  if (read.kind !== 'text') return { unknown: `${resolved.path.relativePath} is no longer a text file tole can read` };
  if (isPreparedEdit(prepared)) {
    const verdict = editVerdict(read.text, input.old_text, input.new_text, prepared);
    const { priorFile } = prepared as { priorFile?: unknown };
    if (verdict !== false || typeof priorFile !== 'string') return verdict;
    if ((await fileIdentity(resolved.path)) === priorFile) return false;
    return {
      unknown: `${resolved.path.relativePath} holds the old text where the edit was to go, but is not the file it held when the call was prepared: it was replaced since (by this edit, then undone?)`,
    };
  }
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
