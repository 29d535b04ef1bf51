import type { ToolContext } from '../tool';
import type { WorkspacePath } from '../workspace';
import { fsFailure, readTextFile, workspacePathOrFailure } from './file-io';

/** What an edit asks for: in the file at `path`, `old_text` (found exactly once) becomes `new_text`. */
export interface EditRequest {
  readonly path: string;
  readonly old_text: string;
  readonly new_text: string;
}

type PlannedEdit =
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

/** Reads the file and applies the edit in memory, or says why it cannot apply. Never throws for the world's failures. */
export async function planEdit(input: EditRequest, ctx: Pick<ToolContext, 'workspaceRoot'>): Promise<PlannedEdit> {
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
