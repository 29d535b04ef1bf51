import { lstat, opendir } from 'node:fs/promises';
import path from 'node:path';
import { type ChangePreview, hunkCount, NEW_FILE_PREVIEW_LINES } from '../../approval/change-preview';
import { resolveWorkspacePath, type ResolveOptions } from '../workspace';
import { describeFsError, isFsError, readTextFile, type TextFileRead } from './file-io';
import { type EditRequest, planEdit } from './edit-plan';
import { unifiedDiff } from './line-diff';

/** Entries a directory's preview counts before it says "at least": a preview never walks forever. */
const MAX_PREVIEW_ENTRIES = 100_000;

function unreadable(error: unknown): ChangePreview {
  return { kind: 'unreadable', why: (error as Error)?.message ?? String(error) };
}

/** write_file: the diff against the file as it is now, or the new file's first lines and size. */
export async function writePreview(
  input: { readonly path: string; readonly content: string },
  workspaceRoot: string,
): Promise<ChangePreview> {
  const resolved = await resolveWorkspacePath(workspaceRoot, input.path);
  if (!resolved.ok) return { kind: 'unreadable', why: resolved.error.message };
  const { relativePath } = resolved.path;
  let read: TextFileRead;
  try {
    read = await readTextFile(resolved.path);
  } catch (error) {
    return isFsError(error) ? { kind: 'unreadable', why: describeFsError(error, relativePath) } : unreadable(error);
  }
  if (read.kind === 'directory') return { kind: 'unreadable', why: `${relativePath} is a directory, not a file.` };
  if (read.kind === 'refused') return { kind: 'unreadable', why: `${read.reason} No diff can be shown.` };
  if (read.kind === 'missing') {
    const lines = input.content === '' ? [] : input.content.replace(/\n$/, '').split('\n');
    return {
      kind: 'new-file',
      firstLines: lines.slice(0, NEW_FILE_PREVIEW_LINES),
      lines: lines.length,
      bytes: Buffer.byteLength(input.content, 'utf8'),
    };
  }
  const diff = unifiedDiff(relativePath, read.text, input.content);
  return { kind: 'diff', diff, hunks: hunkCount(diff) };
}

/** edit_file: the diff of its change, or why it will not apply. */
export async function editPreview(input: EditRequest, workspaceRoot: string): Promise<ChangePreview> {
  const plan = await planEdit(input, { workspaceRoot });
  if (!plan.ok) return { kind: 'unreadable', why: plan.message };
  const diff = unifiedDiff(plan.relativePath, plan.before, plan.after);
  return { kind: 'diff', diff, hunks: hunkCount(diff) };
}

/** delete_path: what is removed; a directory walked without following any link, up to MAX_PREVIEW_ENTRIES entries. */
export async function deletePreview(
  requested: string,
  workspaceRoot: string,
  options: ResolveOptions,
): Promise<ChangePreview> {
  const resolved = await resolveWorkspacePath(workspaceRoot, requested, options);
  if (!resolved.ok) return { kind: 'unreadable', why: resolved.error.message };
  const { found, absolutePath, relativePath } = resolved.path;
  try {
    if (found.kind === 'missing') return { kind: 'removes', what: 'nothing', files: 0, bytes: 0 };
    if (found.kind === 'symlink') return { kind: 'removes', what: 'link', files: 1, bytes: 0 };
    if (found.kind === 'special') return { kind: 'removes', what: 'other', files: 1, bytes: 0 };
    if (found.kind === 'file')
      return { kind: 'removes', what: 'file', files: 1, bytes: (await lstat(absolutePath)).size };
    return { kind: 'removes', what: 'directory', ...(await treeSize(absolutePath)) };
  } catch (error) {
    return isFsError(error) ? { kind: 'unreadable', why: describeFsError(error, relativePath) } : unreadable(error);
  }
}

/** Files (anything not a directory, links counted as themselves) and their bytes under `root`. */
async function treeSize(root: string): Promise<{ files: number; bytes: number; partial?: boolean }> {
  let files = 0;
  let bytes = 0;
  let seen = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    for await (const entry of await opendir(dir)) {
      if (++seen > MAX_PREVIEW_ENTRIES) return { files, bytes, partial: true };
      const at = path.join(dir, entry.name);
      // Dirent types come from the directory itself: a link is never followed, only counted.
      if (entry.isDirectory()) pending.push(at);
      else {
        files++;
        if (entry.isFile()) bytes += (await lstat(at)).size;
      }
    }
  }
  return { files, bytes };
}
