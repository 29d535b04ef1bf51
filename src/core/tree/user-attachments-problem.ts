import type { Entry } from './entry-types';

/**
 * What is wrong with a user entry's `attachments`, or null when it is absent or well formed.
 * Payloads are read from the file as they are, so a field written by hand (or by a damaged tole)
 * is caught here, before it is sent to the model or shown.
 */
export function userAttachmentsProblem(entry: Entry<'user'>): string | null {
  const value: unknown = entry.payload.attachments;
  if (value === undefined) return null;
  if (!Array.isArray(value)) return 'they are not a list';
  for (const [i, item] of value.entries()) {
    const problem = attachmentProblem(item);
    if (problem !== null) return `attachment ${i + 1}: ${problem}`;
  }
  return null;
}

function attachmentProblem(item: unknown): string | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'it is not an object';
  const { path, kind, text, size, cut, ...rest } = item as Record<string, unknown>;
  if (typeof path !== 'string' || path === '') return 'its path is not a non-empty string';
  if (kind !== 'file' && kind !== 'directory') return `its kind is ${JSON.stringify(kind)}, not "file" or "directory"`;
  if (typeof text !== 'string') return 'its text is not a string';
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return 'its size is not a count';
  if (cut !== undefined && cut !== true) return 'its cut mark is not true';
  const extra = Object.keys(rest);
  if (extra.length > 0) return `it has fields tole does not know (${extra.join(', ')})`;
  return null;
}

/** The words for a malformed attachments field: the entry, what is wrong, and what to do. */
export function malformedAttachmentsMessage(entryId: string, problem: string): string {
  return `user entry ${entryId} has malformed attachments (${problem}): the session file was changed outside tole; restore it from a copy, or branch from before that entry`;
}
