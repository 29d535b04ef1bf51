import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ATTACHMENT_CAP_BYTES, ATTACHMENT_CAP_NAMES, type Attachment } from '../attachment';
import { resolveWorkspacePath, type WorkspacePath } from '../workspace';
import { directoryItself, openDirectoryChecked } from './checked-open';
import { MAX_ATTACHMENTS, promptMentions } from '../prompt-mentions';
import { describeFsError, isFsError, looksBinary, openFileForReading, specialMessage } from './file-io';

/**
 * What became of one `@path`: attached; not a path at all (nothing is there, inside the workspace
 * or out, so it stays plain text, as `@everyone` does); or refused, with why.
 */
type AttachmentRead =
  | { readonly kind: 'attached'; readonly attachment: Attachment }
  | { readonly kind: 'not-a-path' }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * Reads `written` for a prompt through the same guarded resolver as the file tools: inside the
 * workspace only, symlinks followed only where they stay inside, the file opened as the very one
 * checked, FIFOs, sockets and devices never opened. A file gives its first `ATTACHMENT_CAP_BYTES`
 * (cut at a character's end) and says when it was cut; a binary file is refused; a directory gives
 * its names. A name with control characters is refused: it cannot be shown or written back safely.
 */
export async function readAttachment(workspaceRoot: string, written: string): Promise<AttachmentRead> {
  if (/[\u0000-\u001f\u007f]/.test(written))
    return refused(`${JSON.stringify(written)} has control characters in its name; tole does not attach such a path`);
  const resolved = await resolveWorkspacePath(workspaceRoot, written);
  if (!resolved.ok) {
    // Nothing there, even outside: a word that starts with @, not a path.
    if (!(await existsAnywhere(workspaceRoot, written))) return { kind: 'not-a-path' };
    return refused(resolved.error.message);
  }
  const target = resolved.path;
  const shown = target.relativePath;
  try {
    switch (target.found.kind) {
      case 'missing':
        return { kind: 'not-a-path' };
      case 'file':
        return await readFileStart(target);
      case 'directory':
        return await readNames(target);
      default:
        return refused(specialMessage(shown));
    }
  } catch (error) {
    if (isFsError(error)) return refused(describeFsError(error, shown));
    throw error;
  }
}

function refused(reason: string): AttachmentRead {
  return { kind: 'refused', reason };
}

async function existsAnywhere(workspaceRoot: string, written: string): Promise<boolean> {
  try {
    await lstat(path.resolve(workspaceRoot, written));
    return true;
  } catch {
    return false;
  }
}

async function readFileStart(target: WorkspacePath): Promise<AttachmentRead> {
  const handle = await openFileForReading(target);
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, ATTACHMENT_CAP_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const start = buffer.subarray(0, bytesRead);
    if (looksBinary(start)) return refused(`${target.relativePath} is a binary file; only text files can be attached`);
    const cut = size > bytesRead;
    const text = new TextDecoder('utf-8').decode(cut ? wholeCharacters(start) : start);
    const attachment: Attachment = {
      path: target.relativePath,
      kind: 'file',
      text,
      size,
      ...(cut ? { cut: true } : {}),
    };
    return { kind: 'attached', attachment };
  } finally {
    await handle.close();
  }
}

/** The bytes up to the last whole UTF-8 character (a cut never splits one). */
function wholeCharacters(bytes: Buffer): Buffer {
  let end = bytes.length;
  let back = 0;
  while (end - back > 0 && back < 4 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead === undefined) return bytes.subarray(0, end - back);
  const needs = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (needs !== back + 1) end -= back + 1;
  return bytes.subarray(0, end);
}

async function readNames(target: WorkspacePath): Promise<AttachmentRead> {
  const { found } = target;
  if (found.kind !== 'directory') throw new Error(`assert: ${target.absolutePath} is not a directory`);
  const directory = await openDirectoryChecked(target.absolutePath, target.absolutePath, found);
  try {
    const entries = await readdir(directoryItself(directory), { withFileTypes: true });
    const names = entries
      .filter((entry) => !/[\u0000-\u001f\u007f]/.test(entry.name))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort();
    const shown = names.slice(0, ATTACHMENT_CAP_NAMES);
    const cut = names.length > shown.length;
    const attachment: Attachment = {
      path: target.relativePath,
      kind: 'directory',
      text: shown.join('\n'),
      size: names.length,
      ...(cut ? { cut: true } : {}),
    };
    return { kind: 'attached', attachment };
  } finally {
    await directory.handle.close();
  }
}

/** Every mention of a prompt read: the files attached, and the mentions refused with why (each says its path). */
interface PromptAttachments {
  readonly attachments: readonly Attachment[];
  readonly refusals: readonly string[];
}

/** Reads the `@path` mentions of `prompt` (at most `MAX_ATTACHMENTS` attached; more are refused, saying so). */
export async function readPromptAttachments(workspaceRoot: string, prompt: string): Promise<PromptAttachments> {
  const attachments: Attachment[] = [];
  const refusals: string[] = [];
  for (const mention of promptMentions(prompt)) {
    const read = await readAttachment(workspaceRoot, mention.path);
    if (read.kind === 'refused') refusals.push(`@${mention.path}: ${read.reason}`);
    if (read.kind !== 'attached') continue;
    if (attachments.some((a) => a.path === read.attachment.path)) continue;
    if (attachments.length >= MAX_ATTACHMENTS) {
      refusals.push(`@${mention.path}: at most ${MAX_ATTACHMENTS} files are attached to one prompt`);
      continue;
    }
    attachments.push(read.attachment);
  }
  return { attachments, refusals };
}
