import type { ApprovalField } from '../approval/approval-field';
import type { LaneHead } from '../../core/registers/namespaces';
import type { RestorePreview } from '../../core/session/restore-files';
import type { ChildPath } from '../tree/child-path';
import type { PaneId } from '../input/keymap';
import type { CommandReport } from '../commands/slash-commands';
import type { PickerList } from '../picker/session-switch';
import { EMPTY_EDITOR, insertText, type EditorState } from '../prompt/line-editor';
import { foldPaste, type FoldedPaste } from '../prompt/folded-paste';
import { FOLLOW, type ScrollAnchor } from '../transcript/transcript-window';

export interface Flash {
  readonly level: 'info' | 'warn' | 'error';
  readonly text: string;
  /** Stays until the next prompt is sent (what the user must read: a repaired file); others fade. */
  readonly sticky?: boolean;
  /** The approval box's lines not yet on screen: gone once scrolling has shown them. */
  readonly unseenLines?: boolean;
}

/** How long a flash that is not sticky stays. */
export const FLASH_MS = 6000;

/** Prompts kept for ↑/↓ recall. */
const MAX_HISTORY = 200;

/**
 * The files prompt: `restore` (u in the tree: y/n) or `checkout` (Enter on an entry whose files
 * differ: conversation only, or conversation and files). `preview` is null while it is computed.
 */
export interface FilesDialog {
  readonly kind: 'restore' | 'checkout';
  readonly entryId: string;
  readonly preview: RestorePreview | null;
}

/**
 * A one-line field over the prompt: `find` (`/` in the tree: the query), `label` (`L` in the
 * tree: the selected entry's label) or `name` (`R` in the tree, `/name`: the session's name).
 * While one is open it holds the keyboard.
 */
export interface TreeField {
  readonly kind: 'find' | 'label' | 'name';
  /** The entry a label goes on (null for find). */
  readonly entryId: string | null;
  /** What is typed and where the cursor is: edited with the prompt's keys (input/edit-keys.ts). */
  readonly editor: EditorState;
}

/** A field opened on `value`, the cursor at its end. */
export function openTreeField(kind: TreeField['kind'], entryId: string | null, value: string): TreeField {
  return { kind, entryId, editor: { value, cursor: value.length } };
}

/** Everything the screen remembers that is not in the session file. */
export interface UiState {
  readonly focus: PaneId;
  readonly helpOpen: boolean;
  readonly helpOffset: number;
  /** What a command reported (`/context`), shown in the help overlay's place while it is open. */
  readonly report: CommandReport | null;
  /** `/cost` is open, in the help overlay's place (live: it follows the ledger and the call in flight). */
  readonly costOpen: boolean;
  /** The plan is open full size, in the help overlay's place (live: it follows the branch's task state). */
  readonly planOpen: boolean;
  /** The queued-prompts list (`/queue`) is open, and which of them is selected. */
  readonly queueOpen: boolean;
  readonly queueIndex: number;
  readonly editor: EditorState;
  readonly history: readonly string[];
  /** Where ↑/↓ is in the history (null: editing a new prompt), and the prompt being typed before. */
  readonly historyIndex: number | null;
  readonly draft: EditorState;
  /** Ctrl-R: what is searched for in the history, and the match the prompt holds now. */
  readonly historySearch: { readonly query: string; readonly index: number } | null;
  /** The entry selected in the tree (null: the checked-out one). */
  readonly selectedId: string | null;
  readonly transcript: ScrollAnchor;
  readonly usageOffset: number;
  readonly registersOffset: number;
  readonly flash: Flash | null;
  /** A read-only session's local check-out: it moves the view, nothing is written. */
  readonly viewHead: LaneHead | null;
  /** Long pastes shown folded in the prompt (`[pasted 200 lines #1]`), sent whole. */
  readonly pastes: readonly FoldedPaste[];
  /** Inside a bracketed paste: Enter is a newline, not a send. */
  readonly pasting: boolean;
  readonly dialog: FilesDialog | null;
  /** An earlier prompt being edited (`e` in the tree): sending it branches beside it, from its parent. */
  readonly editing: { readonly entryId: string; readonly parentId: string | null } | null;
  readonly field: TreeField | null;
  /** The tree's search (what `/` typed last): its matches stay marked for n/N after the field closes. */
  readonly find: string;
  /** `/resume`: the session picker, shown in the screen's place, with the sessions it lists. */
  readonly picker: PickerList | null;
  /**
   * How far the approval box of one call (by its id) is scrolled, and how many of its body's lines
   * have been on screen (`seen`): a key approves only once every one was. Another call's box opens
   * at its top.
   */
  readonly approvalScroll: { readonly callId: string; readonly top: number; readonly seen: number } | null;
  /** A field open in the approval box of one call (by its id): a denial's message, a prefix to confirm, the command edited. */
  readonly approvalField: ApprovalField | null;
  /** The `task` calls unfolded in the tree (by their intent's id), each with its sub-agent's entries as last read (while it runs, after each of its commits). */
  readonly unfolded: ReadonlyMap<string, ChildPath>;
  /** The completion popup for the prompt text `value`: the row selected, and whether Esc closed it (typing opens it again). */
  readonly completion: PopupChoice;
}

interface PopupChoice {
  readonly value: string;
  readonly selected: number;
  readonly closed: boolean;
}

/** The popup's choice for the prompt as it is now: a prompt edited since starts again at the first row, open. */
export function popupChoice(state: UiState): PopupChoice {
  const { completion, editor } = state;
  return completion.value === editor.value ? completion : { value: editor.value, selected: 0, closed: false };
}

export const INITIAL_UI: UiState = {
  focus: 'input',
  helpOpen: false,
  helpOffset: 0,
  report: null,
  costOpen: false,
  planOpen: false,
  queueOpen: false,
  queueIndex: 0,
  editor: EMPTY_EDITOR,
  history: [],
  historyIndex: null,
  draft: EMPTY_EDITOR,
  historySearch: null,
  selectedId: null,
  transcript: FOLLOW,
  usageOffset: 0,
  registersOffset: 0,
  flash: null,
  viewHead: null,
  pasting: false,
  pastes: [],
  dialog: null,
  editing: null,
  field: null,
  find: '',
  picker: null,
  approvalScroll: null,
  approvalField: null,
  unfolded: new Map(),
  completion: { value: '', selected: 0, closed: false },
};

export type UiAction =
  | { readonly type: 'focus'; readonly pane: PaneId }
  | { readonly type: 'help'; readonly open: boolean }
  | { readonly type: 'report'; readonly report: CommandReport }
  | { readonly type: 'cost' }
  | { readonly type: 'plan' }
  | { readonly type: 'help-scroll'; readonly delta: number }
  | { readonly type: 'queue-list'; readonly open: boolean; readonly index?: number }
  /** `drop`: also let go of the earlier prompt being edited (Ctrl-C clearing the editor). */
  | { readonly type: 'edit'; readonly editor: EditorState; readonly drop?: boolean }
  | { readonly type: 'history'; readonly direction: -1 | 1 }
  | { readonly type: 'history-search' }
  | { readonly type: 'submitted'; readonly text: string }
  | { readonly type: 'select'; readonly id: string | null }
  | { readonly type: 'transcript'; readonly anchor: ScrollAnchor }
  | { readonly type: 'scroll-side'; readonly pane: 'usage' | 'registers'; readonly delta: number }
  | { readonly type: 'flash'; readonly flash: Flash | null }
  | { readonly type: 'view-head'; readonly head: LaneHead }
  | { readonly type: 'pasting'; readonly on: boolean }
  | { readonly type: 'paste-folded'; readonly text: string }
  | { readonly type: 'dialog'; readonly dialog: FilesDialog | null }
  | { readonly type: 'dialog-preview'; readonly entryId: string; readonly preview: RestorePreview }
  | { readonly type: 'edit-prompt'; readonly entryId: string; readonly parentId: string | null; readonly text: string }
  | { readonly type: 'field'; readonly field: TreeField | null }
  | { readonly type: 'field-edit'; readonly editor: EditorState }
  | { readonly type: 'picker'; readonly picker: PickerList | null }
  | { readonly type: 'approval-scroll'; readonly callId: string; readonly top: number; readonly seen: number }
  | { readonly type: 'approval-field'; readonly field: ApprovalField | null }
  /** `child`: the sub-agent's entries to show beneath the call `entryId`; null folds it. */
  | { readonly type: 'unfold'; readonly entryId: string; readonly child: ChildPath | null }
  /** A running sub-agent committed: its entries read again, shown if its call is still unfolded (the transcript stays where it is). */
  | { readonly type: 'unfolded-read'; readonly entryId: string; readonly child: ChildPath }
  /** The completion popup: select a row (`count` rows shown: it wraps), or close it for the prompt as it is. */
  | { readonly type: 'completion-move'; readonly delta: number; readonly count: number }
  | { readonly type: 'completion-close' };

/**
 * ↑/↓ through the prompt history. A prompt brought back holds the completion popup closed (typing
 * opens it again): a recalled `/new` would otherwise open the popup, and the next ↑ would move in
 * it instead of going on through the history.
 */
function recall(state: UiState, direction: -1 | 1): UiState {
  const recalled = recallPrompt(state, direction);
  if (recalled === state) return state;
  return { ...recalled, completion: { value: recalled.editor.value, selected: 0, closed: true } };
}

function recallPrompt(state: UiState, direction: -1 | 1): UiState {
  const { history, historyIndex } = state;
  if (history.length === 0) return state;
  if (historyIndex === null) {
    if (direction === 1) return state;
    const text = history[history.length - 1]!;
    return {
      ...state,
      historyIndex: history.length - 1,
      draft: state.editor,
      editor: { value: text, cursor: text.length },
    };
  }
  const next = historyIndex + direction;
  if (next < 0) return state;
  if (next >= history.length) return { ...state, historyIndex: null, editor: state.draft };
  const text = history[next]!;
  return { ...state, historyIndex: next, editor: { value: text, cursor: text.length } };
}

/**
 * Ctrl-R: the newest earlier prompt holding what the prompt holds (any case); again, the next
 * older one holding the same. The prompt being typed is kept as the draft (↓ past the newest
 * brings it back). Unchanged when no older prompt holds it.
 */
function searchBack(state: UiState): UiState {
  const { history, historySearch: search, editor } = state;
  const continuing = search !== null && history[search.index] === editor.value;
  const query = continuing ? search.query : editor.value;
  const needle = query.toLowerCase();
  for (let i = (continuing ? search.index : history.length) - 1; i >= 0; i--) {
    const prompt = history[i]!;
    if (prompt === editor.value || !prompt.toLowerCase().includes(needle)) continue;
    return {
      ...state,
      historySearch: { query, index: i },
      historyIndex: i,
      draft: continuing || state.historyIndex !== null ? state.draft : editor,
      editor: { value: prompt, cursor: prompt.length },
    };
  }
  return state;
}

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case 'focus':
      return { ...state, focus: action.pane, selectedId: action.pane === 'tree' ? null : state.selectedId };
    case 'help':
      return { ...state, helpOpen: action.open, helpOffset: 0, report: null, costOpen: false, planOpen: false };
    case 'report':
      return { ...state, helpOpen: true, helpOffset: 0, report: action.report, costOpen: false, planOpen: false };
    case 'cost':
      return { ...state, helpOpen: true, helpOffset: 0, report: null, costOpen: true, planOpen: false };
    case 'plan':
      return { ...state, helpOpen: true, helpOffset: 0, report: null, costOpen: false, planOpen: true };
    case 'queue-list':
      return {
        ...state,
        queueOpen: action.open,
        queueIndex: Math.max(0, action.index ?? (action.open ? state.queueIndex : 0)),
      };
    case 'help-scroll':
      return { ...state, helpOffset: Math.max(0, state.helpOffset + action.delta) };
    case 'edit':
      return { ...state, editor: action.editor, editing: action.drop ? null : state.editing };
    case 'edit-prompt':
      return {
        ...state,
        focus: 'input',
        editing: { entryId: action.entryId, parentId: action.parentId },
        editor: { value: action.text, cursor: action.text.length },
      };
    case 'history':
      return recall(state, action.direction);
    case 'history-search':
      return searchBack(state);
    case 'submitted': {
      const history =
        state.history[state.history.length - 1] === action.text
          ? state.history
          : [...state.history, action.text].slice(-MAX_HISTORY);
      return {
        ...state,
        history,
        historyIndex: null,
        historySearch: null,
        draft: EMPTY_EDITOR,
        editor: EMPTY_EDITOR,
        pastes: [],
        transcript: FOLLOW,
        editing: null,
      };
    }
    case 'select':
      return { ...state, selectedId: action.id };
    case 'unfold': {
      const unfolded = new Map(state.unfolded);
      if (action.child) unfolded.set(action.entryId, action.child);
      else unfolded.delete(action.entryId);
      return { ...state, unfolded, transcript: FOLLOW };
    }
    case 'unfolded-read': {
      if (!state.unfolded.has(action.entryId)) return state;
      return { ...state, unfolded: new Map(state.unfolded).set(action.entryId, action.child) };
    }
    case 'transcript':
      return { ...state, transcript: action.anchor };
    case 'scroll-side': {
      const key = action.pane === 'usage' ? 'usageOffset' : 'registersOffset';
      return { ...state, [key]: Math.max(0, state[key] + action.delta) };
    }
    case 'flash':
      return { ...state, flash: action.flash };
    case 'view-head':
      return { ...state, viewHead: action.head, transcript: FOLLOW };
    case 'pasting':
      return { ...state, pasting: action.on };
    case 'paste-folded': {
      const fold = foldPaste(action.text, state.pastes.length + 1);
      return { ...state, pastes: [...state.pastes, fold], editor: insertText(state.editor, fold.placeholder) };
    }
    case 'dialog':
      return { ...state, dialog: action.dialog };
    case 'dialog-preview':
      // A preview that comes back after its prompt closed (or another opened) is dropped.
      return state.dialog?.entryId === action.entryId
        ? { ...state, dialog: { ...state.dialog, preview: action.preview } }
        : state;
    case 'field':
      return {
        ...state,
        field: action.field,
        find: action.field?.kind === 'find' ? action.field.editor.value : state.find,
      };
    case 'picker':
      return { ...state, picker: action.picker };
    case 'approval-field':
      return { ...state, approvalField: action.field };
    case 'approval-scroll': {
      const before = state.approvalScroll?.callId === action.callId ? state.approvalScroll.seen : 0;
      const seen = Math.max(before, action.seen);
      return { ...state, approvalScroll: { callId: action.callId, top: Math.max(0, action.top), seen } };
    }
    case 'completion-move': {
      const choice = popupChoice(state);
      const selected = (((choice.selected + action.delta) % action.count) + action.count) % action.count;
      return { ...state, completion: { ...choice, selected } };
    }
    case 'completion-close':
      return { ...state, completion: { ...popupChoice(state), closed: true } };
    case 'field-edit':
      if (!state.field) return state;
      return {
        ...state,
        field: { ...state.field, editor: action.editor },
        find: state.field.kind === 'find' ? action.editor.value : state.find,
      };
  }
}
