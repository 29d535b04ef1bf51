import { oneLine } from '../text/format';
import { editorRows, type EditorRow, type EditorState } from './line-editor';

/** The prompt grows with what is typed, up to this many rows; past that it scrolls with the cursor. */
const MAX_PROMPT_ROWS = 6;
/** Queued prompts listed above the prompt. */
const MAX_QUEUE_ROWS = 3;
export const PROMPT_MARK = '❯ ';

export interface PromptLayout {
  readonly rows: readonly EditorRow[];
  /** Steering sent into the running turn that has not gone in yet. */
  readonly steering: string | null;
  /** The earlier prompt being edited (its id), which the prompt will branch beside. */
  readonly editing: string | null;
  readonly queue: readonly string[];
  readonly moreQueued: number;
  readonly height: number;
}

/** The grey text in an empty prompt: what typing does right now. */
export function promptPlaceholder(state: {
  readonly readOnly: boolean;
  /** The approval box is open: what its keys do, said by the box (approvalPlaceholder); null when none is. */
  readonly approving: string | null;
  readonly running: boolean;
  readonly setupOpen?: boolean;
  readonly noProvider?: boolean;
}): string {
  if (state.setupOpen) return 'pick a server above, or Esc to browse without a model';
  if (state.readOnly) return 'read-only: browse with Tab and the arrows';
  if (state.approving !== null) return state.approving;
  if (state.running) return 'type to steer the turn (⏎) or queue a prompt (Alt-⏎) · Esc stops it';
  if (state.noProvider) return 'no model yet: /connect finds a local server · ? for keys';
  return 'type a prompt · / for commands · ? for keys';
}

/** What the prompt area shows and how many lines it takes, at a width. */
export function promptLayout(
  editor: EditorState,
  queue: readonly string[],
  width: number,
  steering: string | null = null,
  editing: string | null = null,
): PromptLayout {
  const all = editorRows(editor, Math.max(4, width - PROMPT_MARK.length));
  const cursorRow = Math.max(
    0,
    all.findIndex((r) => r.cursorColumn !== null),
  );
  const start = Math.max(0, Math.min(cursorRow - MAX_PROMPT_ROWS + 1, all.length - MAX_PROMPT_ROWS));
  const rows = all.slice(start, start + MAX_PROMPT_ROWS);
  const shownQueue = queue.slice(0, MAX_QUEUE_ROWS).map(oneLine);
  const moreQueued = Math.max(0, queue.length - MAX_QUEUE_ROWS);
  const shownSteering = steering === null ? null : oneLine(steering);
  const extra = (moreQueued > 0 ? 1 : 0) + (shownSteering === null ? 0 : 1) + (editing === null ? 0 : 1);
  return {
    rows,
    steering: shownSteering,
    editing,
    queue: shownQueue,
    moreQueued,
    height: rows.length + shownQueue.length + extra,
  };
}
