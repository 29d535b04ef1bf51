import type { Attachment } from '../tools/attachment';
import { readPromptAttachments } from '../tools/builtin/read-attachment';
import type { NoticePayload } from './turn-hooks';

/**
 * The files a prompt attaches with `@path`, read through the file tools' guarded resolver; a
 * mention that cannot be read becomes a notice the model reads too (the screen refuses to send
 * such a prompt, so this is a file that changed since, or a prompt from elsewhere).
 */
export async function attachToPrompt(
  workspaceRoot: string,
  prompt: string,
): Promise<{ readonly attachments: readonly Attachment[]; readonly notices: readonly NoticePayload[] }> {
  const read = await readPromptAttachments(workspaceRoot, prompt);
  const notices = read.refusals.map(
    (refusal): NoticePayload => ({ level: 'warn', source: 'user', text: `not attached: ${refusal}`, toModel: true }),
  );
  return { attachments: read.attachments, notices };
}

/** The user entry's optional attachments field: absent when there are none. */
export function attachmentsField(attachments: readonly Attachment[]): { attachments?: readonly Attachment[] } {
  return attachments.length === 0 ? {} : { attachments };
}
