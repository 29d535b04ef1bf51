import { approvalOffers } from '../approval/approval-offers';
import type { Key } from 'ink';
import type { SessionStore } from '../../core/storage/session-store';
import type { ApprovalQueue, PendingApproval } from '../approval/approval-queue';
import { stripControls } from '../text/cell-width';
import {
  answerApproval,
  offerPrefix,
  openDenyField,
  openEditField,
  pasteInApprovalField,
  typeInApprovalField,
  type ApprovalKeyContext,
  type SessionAllowance,
} from '../approval/approval-keys';
import {
  activeScopes,
  chordOf,
  keyConditions,
  resolveKey,
  type Action,
  type Binding,
  type Condition,
  type PaneId,
} from './keymap';
import { askAgain } from '../commands/ask-again';
import { applyEdit, insertText, verticalMove, type EditorState } from '../prompt/line-editor';
import { editOf, fieldText, typeInText } from './edit-keys';
import { newestLeaf, siblingRow } from '../tree/tree-rows';
import { readChildPath } from '../tree/child-path';
import { selectedRowIndex, selectedTaskCall, taskCallChild } from '../tree/selected-row';
import { expandPastes, FOLD_PASTE_LINES, lineCount, pastedText } from '../prompt/folded-paste';
import { mouseReport, WHEEL_LINES, type WheelNotch } from './mouse-wheel';
import { applyCompletion } from '../prompt/completion-target';
import type { CompletionList } from '../prompt/completion-items';
import type { EditorResult } from '../prompt/external-editor';
import { nextMatch, type TreeMatches } from '../tree/tree-find';
import { labelOf } from '../../core/session/labels';
import { restoreOffered } from '../dialogs/files-dialog-lines';
import type { SessionCommands } from '../../core/session/session-commands';
import { labelEntry, nameTheSession, openNameField } from '../commands/run-command';
import { flashRefusal } from '../commands/refusal-flash';
import {
  answerCheckout,
  askRestore,
  confirmRestore,
  openFilesDialog,
  type FilesKeyContext,
} from '../dialogs/files-dialog-keys';
import type { TurnAgent, TurnController } from '../screen/turn-controller';
import type { FirstRunKeys } from '../dialogs/use-first-run';
import { openTreeField, popupChoice, type TreeField, type UiAction, type UiState } from '../screen/ui-state';
import type { SessionView } from '../screen/use-session-view';
import type { ScrollAnchor } from '../transcript/transcript-window';

export type { SessionAllowance } from '../approval/approval-keys';

/** Everything a key may read or change, gathered by the App for each key. */
export interface KeyContext {
  readonly ui: UiState;
  readonly dispatch: (action: UiAction) => void;
  readonly view: SessionView;
  readonly store: SessionStore;
  readonly turns: TurnController;
  /** The agent, for the files prompt (previews and restores of workspace checkpoints). */
  readonly agent: TurnAgent;
  /** The session's commands (check-out, labels, name, restore): they refuse what the session's state does not allow. */
  readonly session: SessionCommands;
  readonly approvals: ApprovalQueue;
  readonly pending: PendingApproval | null;
  readonly policy: SessionAllowance | null;
  readonly readOnly: boolean;
  /**
   * Where the open approval box's body is scrolled, how much a page moves it and how far it goes,
   * and which of its lines (1-based, inclusive) have not been on screen yet.
   */
  readonly approvalScroll: {
    readonly top: number;
    readonly page: number;
    readonly maxTop: number;
    readonly unseen: { readonly from: number; readonly to: number } | null;
  } | null;
  /** Rows a page moves in the tree and in the transcript. */
  readonly treePage: number;
  readonly transcriptPage: number;
  /** The transcript's anchor after scrolling `delta` lines from where it is now. */
  readonly scrollTranscript: (delta: number) => ScrollAnchor;
  readonly topOfTranscript: () => ScrollAnchor;
  /** ⏎: send (while a turn runs: steer it); `queue`: after the running turn. */
  readonly submit: (text: string, how?: 'queue') => void;
  readonly quit: () => void;
  /** The keymap in force: the defaults with the config's overrides. */
  readonly keymap: readonly Binding[];
  /** The first-run panel's keys while it is open; null when it is not. */
  readonly setup: FirstRunKeys | null;
  /** Ctrl-G: the prompt in the user's editor; null where there is no terminal to hand over. */
  readonly editText: ((text: string) => EditorResult) | null;
  /** The completion popup over the prompt, as it shows now (null: none, or closed with Esc). */
  readonly completion: CompletionList | null;
  /** The popup's list for the prompt as it is now, its paths the answer to what is typed (a search still running finished first). */
  readonly completionNow: () => CompletionList | null;
  /** The pane at a 1-based cell of the screen (the mouse wheel scrolls it); null outside the panes. */
  readonly paneAt: (column: number, row: number) => PaneId | null;
  /** The tree's matches of the search (`ui.find`) over the rows of `view`; null when nothing is searched. */
  readonly matches: TreeMatches | null;
  /** The open find, label or name field's text as edited: the field takes it, and find's selection follows its matches. */
  readonly editField: (editor: EditorState) => void;
}

const FOCUS_ORDER: readonly PaneId[] = ['input', 'tree', 'transcript', 'usage', 'registers'];

/** A find, label or name field holds no more (a label or a name is cut far shorter when saved). */
const MAX_FIELD_CHARS = 4096;

const PASTE_START = '[200~';
const PASTE_END = '[201~';

function conditions(ctx: KeyContext): Set<Condition> {
  return keyConditions({
    running: ctx.turns.running,
    focus: ctx.ui.focus,
    editorEmpty: ctx.ui.editor.value === '',
    offers: ctx.pending ? approvalOffers(ctx.pending, ctx.policy) : null,
    taskCall:
      ctx.ui.focus === 'tree' ? selectedTaskCall(ctx.store, ctx.view.rows, ctx.ui, ctx.view.head.entryId) : null,
    restoreOffered: restoreOffered(ctx.ui.dialog),
    approvalScrolls: (ctx.approvalScroll?.maxTop ?? 0) > 0,
  });
}

/** Routes one key: bracketed paste first, then the keymap, then (in the prompt) plain typing. */
export function handleKey(ctx: KeyContext, input: string, key: Key): void {
  const mouse = mouseReport(input);
  if (mouse !== null) {
    if (mouse !== 'other') wheel(ctx, mouse);
    return;
  }
  if (input === PASTE_START || input === PASTE_END) {
    ctx.dispatch({ type: 'pasting', on: input === PASTE_START });
    return;
  }
  // An open field (find, label, name: `/name` opens one from the prompt) takes the typing itself.
  const typing =
    ctx.ui.focus === 'input' && !ctx.pending && !ctx.ui.helpOpen && !ctx.setup && !ctx.ui.queueOpen && !ctx.ui.field;
  if (ctx.ui.pasting && typing) {
    ctx.dispatch({ type: 'edit', editor: insertText(ctx.ui.editor, key.return ? '\n' : input) });
    return;
  }
  const field = fieldWithKeys(ctx);
  // A paste that comes as keys (a terminal without bracketed paste's sink): its Enter is no submit.
  if (ctx.ui.pasting && field) return pasteInField(ctx, field, key.return ? ' ' : input);
  if (typeInApprovalField(approvalContext(ctx), input, key)) return;
  const chord = chordOf(input, key);
  let binding = chord === null ? null : bindingOf(ctx, chord, ctx.completion !== null);
  if (chord !== null && binding?.action === 'completion-accept') {
    // The popup may still show an older query's paths while the newer one's are searched: the key
    // acts on the answer to what is typed, finished now; when that has nothing, as if no popup.
    const list = ctx.completionNow();
    if (list !== null) return acceptCompletion(ctx, list, key);
    binding = bindingOf(ctx, chord, false);
  }
  if (binding) {
    runAction(ctx, binding.action, key);
    return;
  }
  if (field) {
    const editor = typeInText(field.editor, input, key, ctx.keymap, 'one');
    if (editor !== field.editor && editor.value.length <= MAX_FIELD_CHARS) ctx.editField(editor);
    return;
  }
  if (typing && !key.ctrl && !key.meta && input !== '') typeText(ctx, input);
}

function bindingOf(ctx: KeyContext, chord: string, popup: boolean) {
  const scopes = activeScopes(
    ctx.ui.focus,
    ctx.pending !== null,
    ctx.ui.helpOpen,
    ctx.setup !== null,
    ctx.ui.dialog?.kind ?? null,
    ctx.ui.queueOpen,
    ctx.ui.field?.kind ?? null,
    popup,
  );
  return resolveKey(chord, { scopes, conditions: conditions(ctx) }, ctx.keymap);
}

/**
 * A bracketed paste, whole: into the prompt as it is (newlines kept), into an open one-line field
 * or the denial message on one line; anywhere else it is dropped, as keys it would have been.
 */
export function handlePaste(ctx: KeyContext, text: string): void {
  if (ctx.pending) return pasteInApprovalField(approvalContext(ctx), text);
  const field = fieldWithKeys(ctx);
  if (field) return pasteInField(ctx, field, text);
  if (ctx.ui.focus !== 'input' || ctx.ui.helpOpen || ctx.setup || ctx.ui.queueOpen) return;
  const pasted = pastedText(text);
  if (lineCount(pasted) > FOLD_PASTE_LINES) ctx.dispatch({ type: 'paste-folded', text: pasted });
  else ctx.dispatch({ type: 'edit', editor: insertText(ctx.ui.editor, pasted) });
}

/** The find, label or name field when it holds the keyboard (no approval box or files prompt over it), else null. */
function fieldWithKeys(ctx: KeyContext): TreeField | null {
  return ctx.pending || ctx.ui.dialog ? null : ctx.ui.field;
}

/** Pasted text goes into a find, label or name field whole, on one line (newlines are spaces), up to its bound. */
function pasteInField(ctx: KeyContext, field: TreeField, text: string): void {
  const room = Math.max(0, MAX_FIELD_CHARS - field.editor.value.length);
  ctx.editField(insertText(field.editor, fieldText(text, 'one').slice(0, room)));
}

/** Typed text; a fast typist's (or a script's) "text⏎" in one chunk is the text, then a send. */
function typeText(ctx: KeyContext, input: string): void {
  const sendsAfter = /^[^\r\n]+\r$/.test(input);
  const editor = insertText(ctx.ui.editor, sendsAfter ? input.slice(0, -1) : input);
  ctx.dispatch({ type: 'edit', editor });
  if (sendsAfter) ctx.submit(editor.value);
}

/** Ctrl-R: the prompt becomes the newest (then older) earlier prompt holding it; the flash says which. */
function searchHistory(ctx: KeyContext): void {
  const before = ctx.ui;
  ctx.dispatch({ type: 'history-search' });
  const after = ctx.ui;
  const query = after.historySearch?.query ?? before.editor.value;
  if (after === before) {
    const text =
      before.history.length === 0
        ? 'no earlier prompts in this folder yet'
        : `no ${before.historySearch ? 'older ' : ''}prompt holds "${oneLineOf(query)}"`;
    return ctx.dispatch({ type: 'flash', flash: { level: 'info', text } });
  }
  ctx.dispatch({
    type: 'flash',
    flash: { level: 'info', text: `history: "${oneLineOf(query)}" (^R older, ↓ back to what you typed)` },
  });
}

const oneLineOf = (text: string): string => {
  const line = stripControls(text.replace(/\s+/g, ' '));
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
};

/** Ctrl-G: the prompt (its pastes unfolded) in the user's editor; what it saves becomes the prompt. */
function editExternally(ctx: KeyContext): void {
  if (!ctx.editText)
    return ctx.dispatch({ type: 'flash', flash: { level: 'warn', text: 'no editor can be opened here' } });
  const result = ctx.editText(expandPastes(ctx.ui.editor.value, ctx.ui.pastes));
  if ('error' in result) return ctx.dispatch({ type: 'flash', flash: { level: 'warn', text: result.error } });
  const value = pastedText(result.text);
  ctx.dispatch({ type: 'edit', editor: { value, cursor: value.length } });
}

/**
 * Tab or ⏎ in the popup: the selected match goes into the prompt; ⏎ on a match already typed in
 * full sends instead. `list` is the answer to what is typed now (see handleKey).
 */
function acceptCompletion(ctx: KeyContext, list: CompletionList, key: Key): void {
  const { value } = ctx.ui.editor;
  const item = list.items[Math.min(popupChoice(ctx.ui).selected, list.items.length - 1)]!;
  const typed = value.slice(list.target.from, list.target.to);
  if (key.return && item.insert.trimEnd() === typed) {
    ctx.submit(value);
    return;
  }
  ctx.dispatch({ type: 'edit', editor: applyCompletion(value, list.target, item) });
}

/** A notch of the wheel scrolls what is under the pointer: the approval box while one is open, the overlay, or a pane. */
function wheel(ctx: KeyContext, notch: WheelNotch): void {
  const delta = notch.direction * WHEEL_LINES;
  if (ctx.pending) return scrollApproval(ctx, delta);
  if (ctx.ui.helpOpen) return ctx.dispatch({ type: 'help-scroll', delta });
  const pane = ctx.paneAt(notch.column, notch.row);
  if (pane === 'transcript') ctx.dispatch({ type: 'transcript', anchor: ctx.scrollTranscript(delta) });
  else if (pane === 'tree') selectIndex(ctx, selectedIndex(ctx) + delta);
  else if (pane === 'usage' || pane === 'registers') ctx.dispatch({ type: 'scroll-side', pane, delta });
}

function runAction(ctx: KeyContext, action: Action, key: Key): void {
  const edit = editOf(action);
  if (edit) {
    ctx.dispatch({ type: 'edit', editor: applyEdit(ctx.ui.editor, edit) });
    return;
  }
  switch (action) {
    case 'approve':
    case 'deny':
    case 'allow-for-session':
      return answerApproval(approvalContext(ctx), action);
    case 'deny-with-message':
      return openDenyField(approvalContext(ctx));
    case 'allow-prefix':
      return offerPrefix(approvalContext(ctx));
    case 'edit-command':
      return openEditField(approvalContext(ctx));
    case 'approval-line-up':
      return scrollApproval(ctx, -1);
    case 'approval-line-down':
      return scrollApproval(ctx, 1);
    case 'approval-page-up':
      return scrollApproval(ctx, -(ctx.approvalScroll?.page ?? 1));
    case 'approval-page-down':
      return scrollApproval(ctx, ctx.approvalScroll?.page ?? 1);
    case 'restore-files': {
      const row = ctx.view.rows.rows[selectedIndex(ctx)];
      if (row) askRestore(filesContext(ctx), row.id);
      return;
    }
    case 'restore-confirm':
      return confirmRestore(filesContext(ctx));
    case 'checkout-conversation':
    case 'checkout-with-files':
      return answerCheckout(filesContext(ctx), action === 'checkout-with-files', (id) => checkoutEntry(ctx, id));
    case 'close-dialog':
      ctx.dispatch({ type: 'dialog', dialog: null });
      return;
    case 'find-open':
      ctx.dispatch({ type: 'field', field: openTreeField('find', null, '') });
      return;
    case 'label-open':
      return openLabel(ctx);
    case 'rename-open':
      return openNameField(ctx);
    case 'field-submit':
      return submitField(ctx);
    case 'field-close':
      ctx.dispatch({ type: 'field', field: null });
      return;
    case 'find-next':
    case 'find-previous':
      return jumpToMatch(ctx, action === 'find-next' ? 1 : -1);
    case 'completion-up':
    case 'completion-down':
      if (ctx.completion)
        ctx.dispatch({
          type: 'completion-move',
          delta: action === 'completion-up' ? -1 : 1,
          count: ctx.completion.items.length,
        });
      return;
    case 'completion-accept':
      if (ctx.completion) {
        const list = ctx.completionNow();
        if (list !== null) acceptCompletion(ctx, list, key);
      }
      return;
    case 'completion-close':
      ctx.dispatch({ type: 'completion-close' });
      return;
    case 'focus-next':
    case 'focus-previous': {
      const at = FOCUS_ORDER.indexOf(ctx.ui.focus);
      const step = action === 'focus-next' ? 1 : FOCUS_ORDER.length - 1;
      ctx.dispatch({ type: 'focus', pane: FOCUS_ORDER[(at + step) % FOCUS_ORDER.length]! });
      return;
    }
    case 'focus-input':
      ctx.dispatch({ type: 'focus', pane: 'input' });
      return;
    case 'interrupt':
      interrupt(ctx);
      return;
    case 'quit':
      if (ctx.ui.focus === 'input' && (ctx.ui.editor.value !== '' || ctx.ui.editing))
        ctx.dispatch({ type: 'edit', editor: { value: '', cursor: 0 }, drop: true });
      else ctx.quit();
      return;
    case 'edit-externally':
      return editExternally(ctx);
    case 'history-search':
      return searchHistory(ctx);
    case 'expand-pastes': {
      const value = expandPastes(ctx.ui.editor.value, ctx.ui.pastes);
      ctx.dispatch({ type: 'edit', editor: { value, cursor: value.length } });
      return;
    }
    case 'quit-if-empty':
      if (ctx.ui.editor.value === '' && !ctx.turns.running) ctx.quit();
      else ctx.dispatch({ type: 'edit', editor: applyEdit(ctx.ui.editor, 'delete-forward') });
      return;
    case 'help':
    case 'close-help':
      ctx.dispatch({ type: 'help', open: action === 'help' });
      return;
    case 'plan':
      ctx.dispatch({ type: 'plan' });
      return;
    case 'submit':
    case 'steer':
      ctx.submit(ctx.ui.editor.value);
      return;
    case 'queue':
      ctx.submit(ctx.ui.editor.value, 'queue');
      return;
    case 'queue-edit':
    case 'queue-remove':
      return queuedPrompt(ctx, action);
    case 'close-queue':
      return ctx.dispatch({ type: 'queue-list', open: false });
    case 'use-server':
      return ctx.setup?.use();
    case 'rescan':
      return ctx.setup?.rescan();
    case 'close-setup':
      return ctx.setup?.close();
    case 'select-up':
    case 'select-down':
      if (ctx.setup) return ctx.setup.move(action === 'select-up' ? -1 : 1);
      if (ctx.ui.queueOpen) return moveInQueue(ctx, action === 'select-up' ? -1 : 1);
      return navigate(ctx, action);
    case 'history-previous':
    case 'history-next': {
      const direction = action === 'history-previous' ? -1 : 1;
      const moved = verticalMove(ctx.ui.editor, direction);
      ctx.dispatch(moved ? { type: 'edit', editor: moved } : { type: 'history', direction });
      return;
    }
    default:
      navigate(ctx, action);
  }
}

function moveInQueue(ctx: KeyContext, delta: -1 | 1): void {
  const length = ctx.turns.getSnapshot().queue.length;
  const index = Math.max(0, Math.min(length - 1, ctx.ui.queueIndex + delta));
  ctx.dispatch({ type: 'queue-list', open: true, index });
}

/** In the `/queue` list: take the selected prompt out, to the editor (`queue-edit`) or away (`queue-remove`). */
function queuedPrompt(ctx: KeyContext, action: 'queue-edit' | 'queue-remove'): void {
  const index = ctx.ui.queueIndex;
  const taken = ctx.session.takeQueued(index);
  if (!taken.ok) return ctx.dispatch({ type: 'queue-list', open: false });
  const { text, left } = taken;
  if (action === 'queue-edit') {
    const value = [ctx.ui.editor.value, text].filter((t) => t !== '').join('\n');
    ctx.dispatch({ type: 'edit', editor: { value, cursor: value.length } });
    ctx.dispatch({ type: 'queue-list', open: false });
    ctx.dispatch({ type: 'focus', pane: 'input' });
    ctx.dispatch({
      type: 'flash',
      flash: {
        level: 'info',
        text: 'the queued prompt is in the editor: change it, then ⏎ (or Alt-⏎ to queue it again)',
      },
    });
    return;
  }
  ctx.dispatch({ type: 'queue-list', open: left > 0, index: Math.min(index, left - 1) });
  ctx.dispatch({
    type: 'flash',
    flash: { level: 'info', text: `removed from the queue: ${text.length > 40 ? `${text.slice(0, 39)}…` : text}` },
  });
}

function approvalContext(ctx: KeyContext): ApprovalKeyContext {
  return {
    dispatch: ctx.dispatch,
    approvals: ctx.approvals,
    pending: ctx.pending,
    policy: ctx.policy,
    field: ctx.ui.approvalField,
    unseen: ctx.approvalScroll?.unseen ?? null,
    keymap: ctx.keymap,
  };
}

function scrollApproval(ctx: KeyContext, delta: number): void {
  const scroll = ctx.approvalScroll;
  if (!ctx.pending || !scroll) return;
  const top = Math.max(0, Math.min(scroll.maxTop, scroll.top + delta));
  ctx.dispatch({ type: 'approval-scroll', callId: ctx.pending.request.callId, top, seen: top + scroll.page });
  // The warning that lines were never shown goes once they have been: it would say so of lines on screen.
  if (scroll.unseen && top + scroll.page >= scroll.unseen.to && ctx.ui.flash?.unseenLines)
    ctx.dispatch({ type: 'flash', flash: null });
}

function interrupt(ctx: KeyContext): void {
  if (!ctx.turns.running) return;
  // Read before the interrupt: whether Esc stops the work that runs now (a restore writing files goes on).
  const { unstoppable } = ctx.turns.getSnapshot();
  const queued = ctx.turns.interrupt();
  if (queued.length === 0) {
    const text = unstoppable ?? 'interrupted: the running stream or tool is being stopped';
    ctx.dispatch({ type: 'flash', flash: { level: 'warn', text } });
    return;
  }
  const current = ctx.ui.editor.value;
  const value = [current, ...queued].filter((t) => t !== '').join('\n');
  ctx.dispatch({ type: 'edit', editor: { value, cursor: value.length } });
  ctx.dispatch({ type: 'focus', pane: 'input' });
  const prompts = `${queued.length} queued prompt${queued.length > 1 ? 's are' : ' is'} back in the prompt, not sent`;
  ctx.dispatch({
    type: 'flash',
    flash: { level: 'warn', text: unstoppable ? `${unstoppable}; ${prompts}` : `interrupted; ${prompts}` },
  });
}

function selectedIndex(ctx: KeyContext): number {
  return selectedRowIndex(ctx.view.rows, ctx.ui.selectedId, ctx.view.head.entryId);
}

function selectIndex(ctx: KeyContext, index: number): void {
  const rows = ctx.view.rows.rows;
  if (rows.length === 0) return;
  const row = rows[Math.max(0, Math.min(rows.length - 1, index))]!;
  ctx.dispatch({ type: 'select', id: row.id });
}

function checkoutSelected(ctx: KeyContext): void {
  const row = ctx.view.rows.rows[selectedIndex(ctx)];
  if (row) checkoutRow(ctx, row.id);
}

function checkoutRow(ctx: KeyContext, id: string): void {
  const refused = ctx.session.checkoutRefusal(id);
  if (refused?.reason === 'read-only') {
    // A read-only session is looked at from the entry instead: nothing is written.
    ctx.dispatch({ type: 'view-head', head: { lane: ctx.view.head.lane, entryId: id } });
    ctx.dispatch({ type: 'flash', flash: { level: 'info', text: `viewing ${id} (read-only: nothing is written)` } });
    return;
  }
  if (refused) return flashRefusal(ctx, refused);
  // When a checkpoint holds the files as they were there, the same prompt offers them too.
  if (ctx.agent.hasCheckpointFor?.(id)) {
    openFilesDialog(filesContext(ctx), 'checkout', id);
    return;
  }
  checkoutEntry(ctx, id);
}

/** Checks out an entry (files untouched) and says so; false when it was refused (a storage failure, a turn started). */
function checkoutEntry(ctx: KeyContext, entryId: string): boolean {
  const done = ctx.session.checkout(entryId);
  if (!done.ok) {
    flashRefusal(ctx, done);
    return false;
  }
  ctx.dispatch({ type: 'transcript', anchor: { kind: 'follow' } });
  const text = done.leaf
    ? `checked out ${entryId}: the next prompt continues this branch`
    : `checked out ${entryId}: the next prompt starts a new branch from here (Esc: to the prompt)`;
  ctx.dispatch({ type: 'flash', flash: { level: 'info', text } });
  return true;
}

function openLabel(ctx: KeyContext): void {
  const row = ctx.view.rows.rows[selectedIndex(ctx)];
  if (ctx.readOnly)
    return ctx.dispatch({
      type: 'flash',
      flash: { level: 'error', text: 'read-only session: labels cannot be written' },
    });
  if (!row)
    return ctx.dispatch({ type: 'flash', flash: { level: 'warn', text: 'nothing to label yet: send a prompt first' } });
  ctx.dispatch({ type: 'field', field: openTreeField('label', row.id, labelOf(ctx.store, row.id) ?? '') });
}

/** Enter in a field: a label is saved as `/label` saves it, a name as `/name` does; a search checks out its match. */
function submitField(ctx: KeyContext): void {
  const field = ctx.ui.field;
  if (!field) return;
  const { value } = field.editor;
  ctx.dispatch({ type: 'field', field: null });
  if (field.kind === 'label') return labelEntry(ctx, field.entryId, value);
  if (field.kind === 'name') return nameTheSession(ctx, value);
  if (value === '') return;
  const matches = ctx.matches;
  if (!matches || matches.indexes.length === 0) {
    ctx.dispatch({ type: 'flash', flash: { level: 'warn', text: `no entry matches "${value}"` } });
    return;
  }
  // The selection sits on a match (typing moved it there, ↑/↓ moved between them); else the first one after it.
  const index = selectedIndex(ctx);
  const target = matches.ids.has(ctx.view.rows.rows[index]?.id ?? '') ? index : nextMatch(matches, index, 1)!;
  const row = ctx.view.rows.rows[target]!;
  ctx.dispatch({ type: 'select', id: row.id });
  checkoutRow(ctx, row.id);
}

/** n/N (and ↑/↓ in the find field): the next or previous match, wrapping around. */
function jumpToMatch(ctx: KeyContext, direction: -1 | 1): void {
  const matches = ctx.matches;
  if (!matches) {
    ctx.dispatch({
      type: 'flash',
      flash: { level: 'info', text: 'nothing searched yet: / in the tree finds entries by text' },
    });
    return;
  }
  const target = nextMatch(matches, selectedIndex(ctx), direction);
  if (target === null) {
    ctx.dispatch({ type: 'flash', flash: { level: 'warn', text: `no entry matches "${matches.query}"` } });
    return;
  }
  selectIndex(ctx, target);
}

/** Typing in the find field: the selection moves to the first match at or after it. */
export function followSearch(ctx: Pick<KeyContext, 'view' | 'dispatch' | 'ui'>, matches: TreeMatches | null): void {
  const { rows, head } = ctx.view;
  const id = ctx.ui.selectedId ?? head.entryId;
  const from = id === null ? 0 : (rows.indexOf.get(id) ?? 0);
  const target = nextMatch(matches, from, 1, true);
  if (target !== null) ctx.dispatch({ type: 'select', id: rows.rows[target]!.id });
}

function filesContext(ctx: KeyContext): FilesKeyContext {
  return {
    dialog: ctx.ui.dialog,
    dispatch: ctx.dispatch,
    session: ctx.session,
    turns: ctx.turns,
  };
}

/** `e` on a prompt of yours: its text goes to the editor; sending it makes a sibling branch beside it. */
function editPrompt(ctx: KeyContext, entryId: string | null): void {
  const entry = entryId === null ? undefined : ctx.store.entry(entryId);
  if (!entry || entry.type !== 'user') {
    ctx.dispatch({
      type: 'flash',
      flash: { level: 'warn', text: 'e edits a prompt of yours (● in the tree): select one first' },
    });
    return;
  }
  if (ctx.readOnly) {
    ctx.dispatch({
      type: 'flash',
      flash: { level: 'warn', text: 'this session is open read-only: prompts cannot be sent here' },
    });
    return;
  }
  ctx.dispatch({ type: 'edit-prompt', entryId: entry.id, parentId: entry.parentId, text: entry.payload.text });
  ctx.dispatch({
    type: 'flash',
    flash: {
      level: 'info',
      text: `editing ${entry.id}: ⏎ sends it as a new branch beside it (the old one stays); ^C lets go of it`,
    },
  });
}

function navigate(ctx: KeyContext, action: Action): void {
  const index = selectedIndex(ctx);
  if (foldKey(ctx, action, ctx.view.rows.rows[index]?.id ?? null)) return;
  switch (action) {
    case 'select-up':
      return selectIndex(ctx, index - 1);
    case 'select-down':
      return selectIndex(ctx, index + 1);
    case 'select-page-up':
      return selectIndex(ctx, index - ctx.treePage);
    case 'select-page-down':
      return selectIndex(ctx, index + ctx.treePage);
    case 'select-first':
      return selectIndex(ctx, 0);
    case 'select-newest':
      return ctx.dispatch({ type: 'select', id: newestLeaf(ctx.store.tree) });
    case 'select-head':
      return ctx.dispatch({ type: 'select', id: null });
    case 'select-branch-tip': {
      const row = ctx.view.rows.rows[index];
      if (row) ctx.dispatch({ type: 'select', id: ctx.store.tree.newestLeafUnder(row.id) });
      return;
    }
    case 'sibling-previous':
    case 'sibling-next':
      return selectIndex(ctx, siblingRow(ctx.store.tree, ctx.view.rows, index, action === 'sibling-previous' ? -1 : 1));
    case 'checkout':
      return checkoutSelected(ctx);
    case 'retry':
      return askAgain(ctx, ctx.view.rows.rows[index]?.id ?? null);
    case 'edit-prompt':
      return editPrompt(ctx, ctx.view.rows.rows[index]?.id ?? null);
    default:
      return scroll(ctx, action);
  }
}

/**
 * On a `task` call (⧉): ⏎ unfolds its sub-agent's entries beneath it or folds them, → unfolds,
 * ← folds. The child's file is read (read-only) when it unfolds. True when the key was taken.
 */
function foldKey(ctx: KeyContext, action: Action, id: string | null): boolean {
  if (action !== 'unfold' && action !== 'sibling-next' && action !== 'sibling-previous') return false;
  const childId = taskCallChild(ctx.store, id);
  if (id === null || childId === null) return false;
  const open = ctx.ui.unfolded.has(id);
  if (action === 'sibling-previous' ? !open : action === 'sibling-next' && open) return false;
  const child = open ? null : readChildPath(ctx.store.path, ctx.store.header.id, childId);
  ctx.dispatch({ type: 'unfold', entryId: id, child });
  if (child && !child.ok) ctx.dispatch({ type: 'flash', flash: { level: 'warn', text: child.reason } });
  if (child?.ok) {
    const text = `sub-agent ${childId} unfolded: its entries are shown read-only, not check-out targets here (the transcript shows them while the call is selected; ← folds)`;
    ctx.dispatch({ type: 'flash', flash: { level: 'info', text } });
  }
  return true;
}

function scroll(ctx: KeyContext, action: Action): void {
  const pane = ctx.ui.focus;
  if (ctx.ui.helpOpen && (action === 'scroll-up' || action === 'scroll-down')) {
    ctx.dispatch({ type: 'help-scroll', delta: action === 'scroll-up' ? -1 : 1 });
    return;
  }
  if ((pane === 'usage' || pane === 'registers') && (action === 'scroll-up' || action === 'scroll-down')) {
    ctx.dispatch({ type: 'scroll-side', pane, delta: action === 'scroll-up' ? -1 : 1 });
    return;
  }
  const page = ctx.transcriptPage;
  const deltas: Partial<Record<Action, number>> = {
    'scroll-up': -1,
    'scroll-down': 1,
    'page-up': -page,
    'page-down': page,
  };
  const delta = deltas[action];
  if (delta !== undefined) ctx.dispatch({ type: 'transcript', anchor: ctx.scrollTranscript(delta) });
  else if (action === 'scroll-top') ctx.dispatch({ type: 'transcript', anchor: ctx.topOfTranscript() });
  else if (action === 'scroll-bottom') ctx.dispatch({ type: 'transcript', anchor: { kind: 'follow' } });
}
