import type { ChatMessage, ToolCallRequest } from '../provider/provider';
import { attachmentsOf, promptWithAttachments } from './user-attachments';
import type { AnyEntry, Entry } from '../tree/entry-types';
import { wholeList } from '../tree/lazy-list';

const INTERRUPTED_CALL_TEXT = 'not run: the turn was interrupted before this call started';
export const SUMMARY_HEADING = '[summary of the conversation so far]';

/**
 * What the model sees of a path: the newest summary on it (if any), then the entries after the
 * summary's hot tail, in order (summary entries themselves excluded), and how far cold tool
 * results are collapsed to one line.
 */
export interface ContextView {
  readonly summary: Entry<'summary'> | null;
  readonly entries: readonly AnyEntry[];
  /** Cold tool results at an index below this one go as one line each. */
  readonly collapseBefore: number;
}

export function contextView(read: readonly AnyEntry[]): ContextView {
  // Every entry of the path is read below: a path built as it is read (a saved index's) is built whole first.
  const path = wholeList(read);
  const at = newestSummaryIndex(path);
  const summary = at === -1 ? null : (path[at] as Entry<'summary'>);
  let from = at + 1;
  if (summary?.payload.tailFromEntryId !== undefined) {
    const tail = path.findIndex((e) => e.id === summary.payload.tailFromEntryId);
    if (tail !== -1 && tail < at) from = tail;
  }
  const entries = path.slice(from).filter((e) => e.type !== 'summary');
  return { summary, entries, collapseBefore: collapseHorizon(path, entries) };
}

/**
 * The conversation the model sees from a view: the system prompt, the summary, then the entries;
 * every tool call gets exactly one tool message, right after the call. `collapseBefore` overrides
 * the view's own horizon when it reaches further.
 */
export function renderView(
  systemPrompt: string,
  view: ContextView,
  collapseBefore = view.collapseBefore,
): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: systemPrompt }];
  if (view.summary) messages.push({ role: 'user', content: `${SUMMARY_HEADING}\n${view.summary.payload.text}` });
  return [...messages, ...renderEntries(view.entries, Math.max(collapseBefore, view.collapseBefore))];
}

/**
 * Entries as chat messages. A notice for the model that falls inside a tool round waits until
 * the round's results are all in: nothing may come between a call and its result.
 */
export function renderEntries(entries: readonly AnyEntry[], collapseBefore = 0): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const subjects = new Map<string, string>();
  /** The `!command`s the user ran, by call id: their results go to the model as the user's message. */
  const userShells = new Map<string, string>();
  let open: ToolCallRequest[] = [];
  let waiting: ChatMessage[] = [];
  const flushWaiting = (): void => {
    messages.push(...waiting);
    waiting = [];
  };
  const closeOpenCalls = (): void => {
    for (const call of open) messages.push({ role: 'tool', toolCallId: call.id, content: INTERRUPTED_CALL_TEXT });
    open = [];
    flushWaiting();
  };
  for (const [i, entry] of entries.entries()) {
    switch (entry.type) {
      case 'summary':
      case 'approval':
      case 'restore':
        break;
      case 'restore_result': {
        if (entry.payload.outcome !== 'ok') break;
        const text = `[tole] ${restoreNote(entry)}`;
        if (open.length > 0) waiting.push({ role: 'user', content: text });
        else messages.push({ role: 'user', content: text });
        break;
      }
      case 'user':
        closeOpenCalls();
        if (entry.payload.blocked === undefined)
          messages.push({ role: 'user', content: promptWithAttachments(entry.payload.text, attachmentsOf(entry)) });
        break;
      case 'assistant':
        closeOpenCalls();
        messages.push({
          role: 'assistant',
          content: entry.payload.text,
          ...(entry.payload.refusal ? { refusal: entry.payload.refusal } : {}),
          ...(entry.payload.thinking ? { thinking: entry.payload.thinking } : {}),
          ...(entry.payload.toolCalls.length > 0 ? { toolCalls: entry.payload.toolCalls } : {}),
        });
        open = [...entry.payload.toolCalls];
        break;
      case 'tool_intent':
        subjects.set(entry.payload.callId, entry.payload.subject);
        // Call ids come from the model too: one may repeat a `!command`'s id, and only the
        // result after the user's own intent is the user's.
        if (entry.payload.by === 'user') {
          closeOpenCalls();
          userShells.set(entry.payload.callId, entry.payload.subject);
        } else userShells.delete(entry.payload.callId);
        break;
      case 'tool_result': {
        const command = userShells.get(entry.payload.callId);
        if (command !== undefined) {
          userShells.delete(entry.payload.callId);
          messages.push({ role: 'user', content: userShellText(command, entry) });
          break;
        }
        const index = open.findIndex((c) => c.id === entry.payload.callId);
        if (index === -1) break;
        open.splice(index, 1);
        const content =
          i < collapseBefore && isCollapsible(entry)
            ? collapsedLine(entry, subjects.get(entry.payload.callId))
            : entry.payload.content;
        messages.push({ role: 'tool', toolCallId: entry.payload.callId, content });
        if (open.length === 0) flushWaiting();
        break;
      }
      case 'notice':
        if (!entry.payload.toModel) break;
        if (open.length > 0) waiting.push({ role: 'user', content: `[tole] ${entry.payload.text}` });
        else messages.push({ role: 'user', content: `[tole] ${entry.payload.text}` });
        break;
      default: {
        const never: never = entry;
        throw new Error(`assert: unhandled entry ${(never as AnyEntry).type}`);
      }
    }
  }
  closeOpenCalls();
  return messages;
}

/**
 * What the model reads of a `!command` the user ran: the command, how it ended and its output.
 * The output is fenced with more backticks than it holds in a row, so nothing it prints (a file's
 * text, a server's answer) can close the fence and read as another command of the user's or a
 * tole notice.
 */
function userShellText(command: string, result: Entry<'tool_result'>): string {
  const { outcome, content } = result.payload;
  const how = outcome === 'ok' ? '' : ` (${outcome})`;
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(content) + 1));
  return `[the user ran a shell command${how}]\n$ ${command}\n${fence}\n${content}\n${fence}`;
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** What the model is told after the user restored the workspace files. */
function restoreNote(entry: Entry<'restore_result'>): string {
  const { added, changed, removed } = entry.payload;
  return `the user restored the workspace files to an earlier checkpoint (${added + changed} files written, ${removed} removed). Files you changed after that point may be back to older contents: read a file again before you edit it.`;
}

/** A cold result (a file read, a listing) that went well: the model can fetch it again. */
export function isCollapsible(entry: AnyEntry): entry is Entry<'tool_result'> {
  return entry.type === 'tool_result' && entry.payload.tier === 'cold' && entry.payload.outcome === 'ok';
}

function collapsedLine(entry: Entry<'tool_result'>, subject: string | undefined): string {
  const { tool, content } = entry.payload;
  const lines = content === '' ? 0 : content.split('\n').length;
  const size = Buffer.byteLength(content, 'utf8');
  return `[collapsed by compaction] ${tool}${subject ? ` ${subject}` : ''}: ${lines} lines, ${size} bytes. Call ${tool} again if you need it.`;
}

function newestSummaryIndex(path: readonly AnyEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (entry.type === 'summary' && entry.payload.kind !== 'collapse') return i;
  }
  return -1;
}

/** The newest collapse on the path reaches up to its tail's first entry (horizons only move forward). */
function collapseHorizon(path: readonly AnyEntry[], entries: readonly AnyEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (entry.type !== 'summary' || entry.payload.kind !== 'collapse') continue;
    const tailId = entry.payload.tailFromEntryId;
    if (tailId === undefined) return indexAfter(entries, entry.seq);
    // Not in view: a newer summary replaced everything up to it.
    return Math.max(
      0,
      entries.findIndex((e) => e.id === tailId),
    );
  }
  return 0;
}

/** The index of the first entry committed after `seq` (entries are in path order, seqs rise along it). */
function indexAfter(entries: readonly AnyEntry[], seq: number): number {
  const at = entries.findIndex((e) => e.seq > seq);
  return at === -1 ? entries.length : at;
}
