import type { EntryPayloads } from '../tree/entry-types';
import { NS } from '../registers/namespaces';
import type { SessionStore } from '../storage/session-store';
import type { AnyEntry } from '../tree/entry-types';
import type { Attachment } from '../tools/attachment';
import { attachmentNote, attachmentsOf } from './user-attachments';

/**
 * The fence around tool output or an attachment: four backticks at least, and more than the text
 * holds in a row, so nothing in it (a file's text, a command's output) can close the fence and
 * write headings of its own into the export ("## You ran" a command the user never ran).
 */
function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(4, longest + 1));
}

/** `text` in a fence of its own. */
function fenced(text: string): string {
  const fence = fenceFor(text);
  return `${fence}\n${text}\n${fence}`;
}

/** One entry as the export writes it; null for an entry it leaves out. */
export function entryMarkdown(entry: AnyEntry, store: SessionStore): string | null {
  const label = store.registers.get<string>(NS.label, entry.id);
  const tag = label ? ` · ${label}` : '';
  switch (entry.type) {
    case 'user':
      return `## You${tag}\n\n${entry.payload.text}${attachmentsMarkdown(attachmentsOf(entry))}`;
    case 'assistant': {
      const calls = entry.payload.toolCalls.map((c) => `- calls \`${c.name}\` ${c.arguments}`).join('\n');
      const { refusal } = entry.payload;
      const refused = refusal
        ? `${entry.payload.text ? '\n\n' : ''}> **refused:** ${refusal.replace(/\n/g, '\n> ')}`
        : '';
      return `## tole (${entry.payload.model})${tag}\n\n${entry.payload.text}${refused}${calls ? `\n\n${calls}` : ''}`;
    }
    case 'tool_intent': {
      const approval = entry.payload.approval;
      const how = approval
        ? approval.approved
          ? `approved by ${approval.by}${approval.rule ? ` (${approval.rule})` : ''}`
          : `denied (${approval.by})`
        : 'asked the user';
      const checkpoint = entry.payload.checkpoint ? ` · checkpoint \`${entry.payload.checkpoint.slice(0, 12)}\`` : '';
      if (entry.payload.by === 'user')
        return `## You ran${tag}\n\n\`!${entry.payload.subject}\` · ${entry.payload.risk} · ${how}${checkpoint}`;
      return `**${entry.payload.tool}** \`${entry.payload.subject}\` · ${entry.payload.risk} · ${how}${checkpoint}`;
    }
    case 'approval':
      return approvalMarkdown(entry.payload);
    case 'tool_result':
      return `### ${entry.payload.tool} → ${entry.payload.outcome}\n\n${fenced(entry.payload.content)}`;
    case 'summary':
      return `## Summary of the conversation before this point\n\n${entry.payload.text}`;
    case 'notice':
      return `> ${entry.payload.level}: ${entry.payload.text.replace(/\n/g, '\n> ')}`;
    case 'restore':
      return `**restore files** to entry ${entry.payload.targetEntryId} (checkpoint \`${entry.payload.target.slice(0, 12)}\`)`;
    case 'restore_result':
      return `*files restored → ${entry.payload.outcome}: ${entry.payload.content}*`;
  }
}

/** A prompt's attachments as the export shows them: each path, its size (cut or whole), and the text the model read. */
function attachmentsMarkdown(attachments: readonly Attachment[]): string {
  return attachments.map((a) => `\n\n**attached** \`${a.path}\` (${attachmentNote(a)})\n\n${fenced(a.text)}`).join('');
}

/** An approval as the export says it: who decided, what the user said, the prefix kept, the command as edited. */
function approvalMarkdown(payload: EntryPayloads['approval']): string {
  const { decision, checkpoint } = payload;
  const parts = [`*${decision.approved ? 'approved' : 'denied'} by ${decision.by}*`];
  if (!decision.approved && decision.message) parts[0] += `: ${decision.message}`;
  if (decision.approved && decision.confined) parts.push('to run in the sandbox');
  if (decision.approved && decision.allowsPrefix)
    parts.push(`allowed \`${decision.allowsPrefix.join(' ')}\` for the session`);
  if (decision.approved && decision.edited)
    parts.push(
      `edited by the user to run ${decision.edited.risk ?? ''} \`${decision.edited.subject.replace(/\n/g, '⏎')}\``,
    );
  if (checkpoint) parts.push(`checkpoint \`${checkpoint.slice(0, 12)}\``);
  return parts.join(' · ');
}
