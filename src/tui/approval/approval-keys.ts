import type { Key } from 'ink';
import type { ApprovalField } from './approval-field';
import {
  MAX_DENIAL_MESSAGE_CHARS,
  type ApprovalAnswer,
  type ApprovalQueue,
  type PendingApproval,
} from './approval-queue';
import { insertText, MAX_PROMPT_CHARS } from '../prompt/line-editor';
import { fieldText, typeInText } from '../input/edit-keys';
import type { Binding } from '../input/keymap';
import type { SessionAllowance } from './session-allowance';
import type { UiAction } from '../screen/ui-state';

export type { SessionAllowance } from './session-allowance';

/** What the approval box's keys read and change. */
export interface ApprovalKeyContext {
  readonly dispatch: (action: UiAction) => void;
  readonly approvals: ApprovalQueue;
  readonly pending: PendingApproval | null;
  readonly policy: SessionAllowance | null;
  readonly field: ApprovalField | null;
  /** Lines of the box (1-based, inclusive) not on screen yet: no key approves before they were. */
  readonly unseen?: { readonly from: number; readonly to: number } | null;
  /** The keymap in force: the edited command takes the prompt's editing keys from it. */
  readonly keymap: readonly Binding[];
}

const PASTE_START = '[200~';
const PASTE_END = '[201~';

/** Bound on an edited command: the parser refuses longer lines anyway. */
const MAX_EDITED_CHARS = Math.min(MAX_PROMPT_CHARS, 65_536);

function flash(ctx: ApprovalKeyContext, level: 'info' | 'warn', text: string): void {
  ctx.dispatch({ type: 'flash', flash: { level, text } });
}

function setField(ctx: ApprovalKeyContext, field: ApprovalField | null): void {
  ctx.dispatch({ type: 'approval-field', field });
}

/** The open field of the call on screen, or null (a field left from an earlier call is ignored). */
export function openField(field: ApprovalField | null, pending: PendingApproval | null): ApprovalField | null {
  return pending && field?.callId === pending.request.callId ? field : null;
}

/** Whether the call on screen cannot run here, whatever the key (its vetting refused it): the box only closes. */
function cannotRun(pending: PendingApproval): boolean {
  return pending.request.vetting?.outcome === 'refused';
}

/** Whether the call on screen carries a warning `y` accepts for it alone, as shown: no edit, prefix or allowance. */
function warnedOnly(pending: PendingApproval): boolean {
  return pending.request.vetting?.outcome === 'warned';
}

const WARNED_ONLY = 'this warning is accepted with y for this command as shown, or denied with n';

/** Closes the box of a call that cannot run: nothing runs, and the model reads why. */
function closeRefused(ctx: ApprovalKeyContext, pending: PendingApproval): void {
  const decision = ctx.approvals.answer(pending, 'deny', {});
  setField(ctx, null);
  if (decision) flash(ctx, 'warn', `${pending.request.tool} not run: it cannot run here (the box said why)`);
}

/** `n` / `d`: the field a denial's message is typed in (⏎ with nothing typed denies without one). */
export function openDenyField(ctx: ApprovalKeyContext): void {
  if (!ctx.pending) return;
  if (cannotRun(ctx.pending)) return closeRefused(ctx, ctx.pending);
  setField(ctx, { kind: 'deny', callId: ctx.pending.request.callId, value: '' });
}

/** `p`: shows the prefix the policy would keep, to be confirmed; or says why there is none. */
export function offerPrefix(ctx: ApprovalKeyContext): void {
  const { pending, policy } = ctx;
  if (!pending) return;
  if (cannotRun(pending)) return flash(ctx, 'warn', 'this command cannot run here: nothing to allow');
  if (warnedOnly(pending)) return flash(ctx, 'warn', WARNED_ONLY);
  const offer = policy?.prefixOffer?.(pending.request) ?? { ok: false, why: 'nothing can be allowed here' };
  if (!offer.ok) return flash(ctx, 'warn', `no prefix allowed: ${offer.why}`);
  setField(ctx, { kind: 'prefix', callId: pending.request.callId, prefix: offer.prefix });
}

/** `e`: the command in a field to edit before approving it (shell calls only). */
export function openEditField(ctx: ApprovalKeyContext): void {
  const { pending } = ctx;
  if (!pending) return;
  if (!pending.shell)
    return flash(ctx, 'warn', `e edits a shell command; a ${pending.request.tool} call cannot be edited`);
  if (cannotRun(pending)) return flash(ctx, 'warn', 'this command cannot run here: close the box with y or n');
  if (warnedOnly(pending)) return flash(ctx, 'warn', WARNED_ONLY);
  const value = pending.request.subject;
  setField(ctx, { kind: 'edit', callId: pending.request.callId, editor: { value, cursor: value.length } });
}

/** An answer to the call on screen; an approving key that came too soon is refused, saying so. */
export function answerApproval(
  ctx: ApprovalKeyContext,
  answer: ApprovalAnswer,
  detail: { readonly message?: string; readonly prefix?: readonly string[]; readonly edited?: string } = {},
): void {
  const { pending } = ctx;
  if (!pending) return;
  if (cannotRun(pending)) return answer === 'allow-for-session' ? undefined : closeRefused(ctx, pending);
  if (answer === 'allow-for-session' && (!pending.offersAllow || !ctx.policy)) return;
  if (answer === 'allow-for-session' && warnedOnly(pending)) return flash(ctx, 'warn', WARNED_ONLY);
  if (answer !== 'deny' && answer !== 'approve-edited' && ctx.unseen) {
    const { from, to } = ctx.unseen;
    const text = `rows ${from}–${to} of ${to} have not been on screen: ↓ or PgDn shows them, then approve`;
    ctx.dispatch({ type: 'flash', flash: { level: 'warn', text, unseenLines: true } });
    return;
  }
  if (answer !== 'deny' && !ctx.approvals.armed()) {
    flash(ctx, 'warn', 'that key came before the prompt was on screen long enough to read: press it again to approve');
    return;
  }
  const decision = ctx.approvals.answer(pending, answer, detail);
  setField(ctx, null);
  if (!decision) return;
  // The waiting call resumes after this returns, so an allowance is in force for its next call.
  const tool = pending.request.tool;
  if (answer === 'allow-for-session' && decision.approved) ctx.policy?.allowForSession(tool);
  if (answer === 'allow-prefix' && decision.approved) ctx.policy?.allowPrefix?.(pending.request, detail.prefix!);
  const confined = pending.request.vetting?.outcome === 'confined';
  flash(ctx, decision.approved ? 'info' : 'warn', answeredText(tool, answer, detail, confined));
}

function answeredText(
  tool: string,
  answer: ApprovalAnswer,
  detail: { readonly message?: string; readonly prefix?: readonly string[] },
  confined: boolean,
): string {
  switch (answer) {
    case 'approve':
      return confined ? `${tool} approved: it runs in the sandbox` : `${tool} approved`;
    case 'deny':
      return `${tool} denied${detail.message ? ': the model is told what you wrote' : ''}`;
    case 'allow-for-session':
      return `${tool} is allowed for the rest of this session`;
    case 'allow-prefix':
      return `approved; commands starting with \`${detail.prefix!.join(' ')}\` run in the sandbox without asking for the rest of this session`;
    case 'approve-edited':
      return `${tool} approved as you edited it (checked again before it runs)`;
  }
}

/**
 * A key while a field is open in the box. Returns false for a key the field leaves to the keymap
 * (Ctrl-C stops the turn as ever).
 */
export function typeInApprovalField(ctx: ApprovalKeyContext, input: string, key: Key): boolean {
  const field = openField(ctx.field, ctx.pending);
  if (!field) return false;
  if (key.ctrl && input === 'c') return false;
  if (key.escape) {
    setField(ctx, null);
    return true;
  }
  switch (field.kind) {
    case 'deny':
      return typeDenial(ctx, field, input, key);
    case 'prefix':
      if (key.return || input === 'p') answerApproval(ctx, 'allow-prefix', { prefix: field.prefix });
      return true;
    case 'edit':
      return typeEdit(ctx, field, input, key);
  }
}

/** The denial's message: ⏎ denies with it (or without one when nothing is typed). */
function typeDenial(
  ctx: ApprovalKeyContext,
  field: Extract<ApprovalField, { kind: 'deny' }>,
  input: string,
  key: Key,
): boolean {
  const set = (value: string): void => setField(ctx, { ...field, value: value.slice(0, MAX_DENIAL_MESSAGE_CHARS) });
  if (key.return) return deny(ctx, field.value);
  if (key.backspace || key.delete) {
    set([...field.value].slice(0, -1).join(''));
    return true;
  }
  if (key.ctrl || key.meta || input === '' || input === PASTE_START || input === PASTE_END) return true;
  // A fast typist's (or a script's) "text⏎" in one read is the text, then a send.
  const sends = input.endsWith('\r');
  const value = field.value + fieldText(sends ? input.slice(0, -1) : input, 'one');
  if (sends) return deny(ctx, value);
  set(value);
  return true;
}

function deny(ctx: ApprovalKeyContext, typed: string): true {
  const message = typed.trim().slice(0, MAX_DENIAL_MESSAGE_CHARS);
  answerApproval(ctx, 'deny', message === '' ? {} : { message });
  return true;
}

/** The command being edited: ⏎ approves it as edited (core checks it again), Alt-⏎ a new line. */
function typeEdit(
  ctx: ApprovalKeyContext,
  field: Extract<ApprovalField, { kind: 'edit' }>,
  input: string,
  key: Key,
): boolean {
  const set = (editor: typeof field.editor): void => {
    if (editor.value.length <= MAX_EDITED_CHARS) setField(ctx, { ...field, editor });
  };
  if (key.return && key.meta) {
    set(insertText(field.editor, '\n'));
    return true;
  }
  if (key.return) {
    const edited = field.editor.value;
    if (edited.trim() === '') {
      flash(ctx, 'warn', 'the command is empty: type one, or Esc to go back');
      return true;
    }
    answerApproval(ctx, 'approve-edited', { edited });
    return true;
  }
  // ↑↓ move the cursor a line, PgUp/PgDn ten: the box keeps the cursor's line in sight, so every
  // line of what ⏎ approves can be read.
  const lines = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -10 : key.pageDown ? 10 : 0;
  if (lines !== 0) {
    set(moveLines(field.editor, lines));
    return true;
  }
  if (input === PASTE_START || input === PASTE_END) return true;
  // The prompt's editing keys (Ctrl-A/E/U/K/W, Alt-B/F, Home/End, ←→), as the keymap binds them.
  const editor = typeInText(field.editor, input, key, ctx.keymap, 'many');
  if (editor !== field.editor) set(editor);
  return true;
}

/** The cursor `by` lines down (up when negative), at the same column or the line's end. */
export function moveLines(editor: { readonly value: string; readonly cursor: number }, by: number) {
  const lines = editor.value.split('\n');
  const before = editor.value.slice(0, editor.cursor).split('\n');
  const line = before.length - 1;
  const column = before[line]!.length;
  const to = Math.max(0, Math.min(lines.length - 1, line + by));
  const start = lines.slice(0, to).reduce((sum, text) => sum + text.length + 1, 0);
  const cursor = start + Math.min(column, lines[to]!.length);
  // Never between the halves of a surrogate pair.
  const high = editor.value.charCodeAt(cursor - 1);
  return { ...editor, cursor: high >= 0xd800 && high <= 0xdbff ? cursor - 1 : cursor };
}

/** A bracketed paste while a field is open: into a denial's message on one line, into an edited command whole. */
export function pasteInApprovalField(ctx: ApprovalKeyContext, text: string): void {
  const field = openField(ctx.field, ctx.pending);
  if (field?.kind === 'deny') {
    const value = (field.value + fieldText(text, 'one')).slice(0, MAX_DENIAL_MESSAGE_CHARS);
    setField(ctx, { ...field, value });
  } else if (field?.kind === 'edit') {
    const editor = insertText(field.editor, fieldText(text, 'many'));
    if (editor.value.length <= MAX_EDITED_CHARS) setField(ctx, { ...field, editor });
  }
}
