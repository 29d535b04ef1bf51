import type { AnyEntry, EntryPayloads } from '../../core/tree/entry-types';
import { TASK_TOOL } from '../../core/session/task-tool-name';
import { counted, oneLine, plainPreview } from '../text/format';
import type { StyleName } from '../style/styles';
import { visibleRow } from '../text/visible-text';

/** How one entry reads in a single line: a glyph in its role's style, and a short text. */
interface EntryGlyph {
  readonly glyph: string;
  readonly style: StyleName;
  readonly text: string;
}

/** Marks an entry that holds a workspace checkpoint (and restores). */
export const CHECKPOINT_MARK = '⟲';

export function resultGlyph(outcome: EntryPayloads['tool_result']['outcome']): { glyph: string; style: StyleName } {
  switch (outcome) {
    case 'ok':
      return { glyph: '✓', style: 'ok' };
    case 'error':
      return { glyph: '✗', style: 'error' };
    case 'denied':
      return { glyph: '⊘', style: 'warn' };
    case 'blocked':
      return { glyph: '⊘', style: 'error' };
    case 'interrupted':
      return { glyph: '↯', style: 'warn' };
  }
}

function noticeStyle(level: EntryPayloads['notice']['level']): StyleName {
  return level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'muted';
}

/** The session id of the sub-agent a `task` call started (as its intent holds it), or null for any other call. */
export function subAgentOf(intent: EntryPayloads['tool_intent']): string | null {
  if (intent.tool !== TASK_TOOL) return null;
  const id = (intent.prepared as { sessionId?: unknown } | undefined)?.sessionId;
  return typeof id === 'string' && /^[0-9]{1,30}-[0-9a-f]{6}$/.test(id) ? id : null;
}

export function entryGlyph(entry: AnyEntry): EntryGlyph {
  switch (entry.type) {
    case 'user':
      return {
        glyph: entry.payload.blocked ? '⊘' : '●',
        style: entry.payload.blocked ? 'warn' : 'user',
        text: plainPreview(entry.payload.text),
      };
    case 'assistant': {
      const { text, toolCalls, refusal } = entry.payload;
      const calls = toolCalls.length > 0 ? `→ ${toolCalls.map((c) => c.name).join(', ')}` : '';
      if (!text && refusal) return { glyph: '⊘', style: 'warn', text: `declined: ${plainPreview(refusal)}` };
      return { glyph: '◆', style: 'assistant', text: plainPreview(text) || calls || '(no text)' };
    }
    case 'tool_intent': {
      if (entry.payload.by === 'user') return { glyph: '!', style: 'user', text: visibleRow(entry.payload.subject) };
      const child = subAgentOf(entry.payload);
      if (child !== null)
        return { glyph: '⧉', style: 'toolName', text: `${visibleRow(entry.payload.subject)} · sub-agent ${child}` };
      return { glyph: '⚙', style: 'toolName', text: `${entry.payload.tool} ${visibleRow(entry.payload.subject)}` };
    }
    case 'approval': {
      const { decision } = entry.payload;
      return decision.approved
        ? { glyph: '✔', style: 'ok', text: `approved (${decision.by})` }
        : {
            glyph: '✘',
            style: 'warn',
            text: `${decision.by === 'interrupted' ? 'interrupted' : 'denied'} (${decision.by})`,
          };
    }
    case 'tool_result': {
      const { glyph, style } = resultGlyph(entry.payload.outcome);
      return { glyph, style, text: `${entry.payload.tool} ${entry.payload.outcome}` };
    }
    case 'summary':
      return entry.payload.kind === 'collapse'
        ? {
            glyph: 'Σ',
            style: 'accent',
            text: `collapsed ${entry.payload.collapsedResults ?? entry.payload.replacedEntries} tool results`,
          }
        : {
            glyph: 'Σ',
            style: 'accent',
            text: `summary of ${counted(entry.payload.replacedEntries, 'entry', 'entries')}`,
          };
    case 'notice':
      return {
        glyph: entry.payload.level === 'info' ? 'ℹ' : '!',
        style: noticeStyle(entry.payload.level),
        text: oneLine(entry.payload.text),
      };
    case 'restore':
      return { glyph: CHECKPOINT_MARK, style: 'accent', text: `restore files to ${entry.payload.targetEntryId}` };
    case 'restore_result':
      return {
        glyph: entry.payload.outcome === 'ok' ? CHECKPOINT_MARK : '✗',
        style: entry.payload.outcome === 'ok' ? 'ok' : 'error',
        text: oneLine(entry.payload.content),
      };
  }
}

/** No one-line preview is wider than this: a longer one is cut here once, not measured whole per frame. */
const MAX_PREVIEW = 1000;

/** Entries never change: each one's glyph and preview are worked out once. */
const previews = new WeakMap<AnyEntry, EntryGlyph>();

/**
 * `entryGlyph` with its text cut to MAX_PREVIEW, worked out once per entry: the tree's rows and
 * the registers' lane lines show it on every frame that draws them, and a long answer's whole
 * text would be measured and cut again each time (the lane line's leaf is the answer just given).
 */
export function previewGlyph(entry: AnyEntry): EntryGlyph {
  let glyph = previews.get(entry);
  if (!glyph) {
    glyph = entryGlyph(entry);
    if (glyph.text.length > MAX_PREVIEW) glyph = { ...glyph, text: `${glyph.text.slice(0, MAX_PREVIEW)}…` };
    previews.set(entry, glyph);
  }
  return glyph;
}
