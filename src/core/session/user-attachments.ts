import { StorageError } from '../storage/errors';
import type { Attachment } from '../tools/attachment';
import type { Entry } from '../tree/entry-types';
import { malformedAttachmentsMessage, userAttachmentsProblem } from '../tree/user-attachments-problem';

/** A user entry's attachments, checked: a malformed field is refused with words that name the entry. */
export function attachmentsOf(entry: Entry<'user'>): readonly Attachment[] {
  const problem = userAttachmentsProblem(entry);
  if (problem !== null)
    throw new StorageError('corrupt', malformedAttachmentsMessage(entry.id, problem), { ownRemedy: true });
  return entry.payload.attachments ?? [];
}

/** What the size of a cut attachment is, in words. */
export function attachmentNote(attachment: Attachment): string {
  if (attachment.kind === 'directory')
    return attachment.cut
      ? `directory, the first ${attachment.text.split('\n').length} of ${attachment.size} names`
      : `directory, ${attachment.size} names`;
  return attachment.cut
    ? `cut: the first ${Buffer.byteLength(attachment.text)} of ${attachment.size} bytes`
    : `${attachment.size} bytes`;
}

/**
 * The prompt as the model reads it: its text, then each attachment in a block naming its path
 * (a cut one says it was cut, so the model reads the rest with read_file if it needs it).
 */
export function promptWithAttachments(text: string, attachments: readonly Attachment[]): string {
  if (attachments.length === 0) return text;
  const blocks = attachments.map((attachment) => {
    const tool = attachment.kind === 'file' ? 'read_file' : 'list_dir';
    const more = attachment.cut ? `\n[cut here: ${tool} gives the rest]` : '';
    return `<attachment path=${JSON.stringify(attachment.path)} (${attachmentNote(attachment)})>\n${attachment.text}${more}\n</attachment>`;
  });
  return `${text}\n\n${blocks.join('\n\n')}`;
}
