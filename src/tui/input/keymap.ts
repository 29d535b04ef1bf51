/**
 * Every key the screen answers to, as data. One `useInput` reads each key once, turns it into a
 * chord (`ctrl+c`, `shift+tab`, `pageup`, `y`), and looks it up here in the scopes that hold
 * the keyboard right now: the approval prompt when one is open, else the help overlay, else the
 * focused pane, then the global scope. The `?` overlay and the status bar hints are drawn from
 * this table, so they cannot drift from what the keys do.
 */

import type { EditAction } from '../prompt/line-editor';
import type { ApprovalOffers } from '../approval/approval-offers';

export type PaneId = 'input' | 'tree' | 'transcript' | 'usage' | 'registers';
/**
 * `setup`: the first-run panel (no provider yet). `picker`: the session picker of `tole --resume`.
 * `queue`: the list of queued prompts (`/queue`).
 */
export type Scope =
  | 'approval'
  | 'restore'
  | 'checkout'
  | 'find'
  | 'label'
  | 'name'
  | 'help'
  | 'setup'
  | 'picker'
  | 'queue'
  | 'completion'
  | PaneId
  | 'global';

export type Action =
  | 'focus-next'
  | 'focus-previous'
  | 'focus-input'
  | 'interrupt'
  | 'quit'
  | 'help'
  | 'plan'
  | 'close-help'
  | 'submit'
  | 'steer'
  | 'queue'
  | 'queue-remove'
  | 'queue-edit'
  | 'close-queue'
  | 'retry'
  | 'edit-prompt'
  | 'history-previous'
  | 'history-next'
  | 'expand-pastes'
  | 'edit-externally'
  | 'history-search'
  | EditAction
  | 'quit-if-empty'
  | 'select-up'
  | 'select-down'
  | 'select-page-up'
  | 'select-page-down'
  | 'select-first'
  | 'select-newest'
  | 'select-head'
  | 'sibling-previous'
  | 'sibling-next'
  | 'checkout'
  | 'scroll-up'
  | 'scroll-down'
  | 'page-up'
  | 'page-down'
  | 'scroll-top'
  | 'scroll-bottom'
  | 'approve'
  | 'deny'
  | 'allow-for-session'
  | 'deny-with-message'
  | 'allow-prefix'
  | 'edit-command'
  | 'approval-line-up'
  | 'approval-line-down'
  | 'approval-page-up'
  | 'approval-page-down'
  | 'use-server'
  | 'rescan'
  | 'close-setup'
  | 'open-session'
  | 'toggle-all'
  | 'restore-files'
  | 'restore-confirm'
  | 'unfold'
  | 'checkout-conversation'
  | 'checkout-with-files'
  | 'close-dialog'
  | 'find-open'
  | 'find-next'
  | 'find-previous'
  | 'label-open'
  | 'rename-open'
  | 'select-branch-tip'
  | 'field-submit'
  | 'field-close'
  | 'completion-up'
  | 'completion-down'
  | 'completion-accept'
  | 'completion-close';

/** When a binding applies beyond its scope. */
export type Condition =
  | 'not-typing'
  | 'running'
  | 'idle'
  | 'allow-offered'
  | 'prefix-offered'
  | 'edit-offered'
  /** The call in the approval box can run: `y` approves it (not a call tole refused before asking). */
  | 'approve-offered'
  /** The approval box has rows off screen: ↑↓ and PgUp/PgDn move it (a box that fits whole has none). */
  | 'approval-scrolls'
  /** The session can be written: not opened read-only. */
  | 'writable'
  /** The tree has the keyboard and its selected row is a sub-agent's `task` call (⧉), folded. */
  | 'on-task-call'
  /** The same, unfolded: its sub-agent's entries are shown beneath it. */
  | 'on-unfolded-task-call'
  /** The restore prompt is open and may restore: its preview is still coming, or has files to change. */
  | 'restore-offered';

export interface Binding {
  readonly scope: Scope;
  readonly keys: readonly string[];
  readonly action: Action;
  /** What `?` says it does. */
  readonly help: string;
  /** Short form for the status bar; bindings without one are left out of it. */
  readonly hint?: string;
  readonly when?: Condition;
  /** The hint is shown only then; the key still acts otherwise (saying why it cannot help). */
  readonly hintWhen?: Condition;
}

export const KEYMAP: readonly Binding[] = [
  { scope: 'completion', keys: ['up', 'ctrl+p'], action: 'completion-up', help: 'completion popup: the match above' },
  {
    scope: 'completion',
    keys: ['down', 'ctrl+n'],
    action: 'completion-down',
    help: 'completion popup: the match below',
  },
  {
    scope: 'completion',
    keys: ['tab', 'return'],
    action: 'completion-accept',
    help: 'completion popup: put the match in the prompt (⏎ on a match already typed sends)',
    hint: 'insert',
  },
  {
    scope: 'completion',
    keys: ['escape'],
    action: 'completion-close',
    help: 'completion popup: close it (typing opens it again); nothing else stops',
    hint: 'close',
  },
  {
    scope: 'approval',
    keys: ['y'],
    action: 'approve',
    help: 'approve this call once (a call that cannot run here: close its box)',
    hint: 'approve',
    hintWhen: 'approve-offered',
  },
  {
    scope: 'approval',
    keys: ['n', 'd'],
    action: 'deny-with-message',
    help: "deny it: type why if you like, then ⏎ (what you type reaches the model as the call's result; Esc goes back)",
    hint: 'deny (type why, ⏎)',
    hintWhen: 'approve-offered',
  },
  {
    scope: 'approval',
    keys: ['N'],
    action: 'deny',
    help: 'deny it at once, saying nothing (the model is told and replans)',
  },
  {
    scope: 'approval',
    keys: ['p'],
    action: 'allow-prefix',
    help: 'approve it and allow commands starting the same (e.g. `npm test`) for the session: shown first, p or ⏎ keeps it; they run in the sandbox, never a Destructive one',
    hint: 'allow prefix',
    hintWhen: 'prefix-offered',
  },
  {
    scope: 'approval',
    keys: ['e'],
    action: 'edit-command',
    help: 'edit the command, then ⏎ approves it as edited (it is checked again, and asked again when riskier)',
    hint: 'edit',
    hintWhen: 'edit-offered',
  },
  {
    scope: 'approval',
    keys: ['a'],
    action: 'allow-for-session',
    help: 'allow this tool for the rest of the session (Write only)',
    hint: 'allow tool',
    when: 'allow-offered',
  },
  {
    scope: 'approval',
    keys: ['up', 'k'],
    action: 'approval-line-up',
    help: 'scroll what will run up a line (every line of it can be read before answering)',
    hint: 'scroll',
    when: 'approval-scrolls',
  },
  {
    scope: 'approval',
    keys: ['down', 'j'],
    action: 'approval-line-down',
    help: 'scroll what will run down a line',
    when: 'approval-scrolls',
  },
  {
    scope: 'approval',
    keys: ['pageup'],
    action: 'approval-page-up',
    help: 'scroll what will run up a page',
    when: 'approval-scrolls',
  },
  {
    scope: 'approval',
    keys: ['pagedown'],
    action: 'approval-page-down',
    help: 'scroll what will run down a page',
    when: 'approval-scrolls',
  },
  {
    scope: 'approval',
    keys: ['escape', 'ctrl+c'],
    action: 'interrupt',
    help: 'stop the turn (the call is not run)',
    hint: 'stop',
  },

  {
    scope: 'restore',
    keys: ['y'],
    action: 'restore-confirm',
    help: 'restore the files (the files as they are now are checkpointed first)',
    hint: 'restore',
    when: 'restore-offered',
  },
  {
    scope: 'restore',
    keys: ['n', 'escape', 'ctrl+c'],
    action: 'close-dialog',
    help: 'leave the files as they are',
    hint: 'cancel',
    when: 'restore-offered',
  },
  {
    scope: 'restore',
    keys: ['n', 'escape', 'ctrl+c'],
    action: 'close-dialog',
    help: 'close the prompt when it has nothing to restore (refused, or the files are as they were)',
    hint: 'close',
  },

  {
    scope: 'checkout',
    keys: ['c'],
    action: 'checkout-conversation',
    help: 'check out the entry, files stay as they are',
    hint: 'conversation only',
  },
  {
    scope: 'checkout',
    keys: ['f'],
    action: 'checkout-with-files',
    help: 'check out the entry and restore the files to how they were there',
    hint: 'conversation and files',
  },
  {
    scope: 'checkout',
    keys: ['escape', 'n', 'ctrl+c'],
    action: 'close-dialog',
    help: 'do not check out',
    hint: 'cancel',
  },

  {
    scope: 'find',
    keys: ['return'],
    action: 'field-submit',
    help: 'check out the match (the files prompt too, when they differ)',
    hint: 'check out',
  },
  { scope: 'find', keys: ['up', 'ctrl+p'], action: 'find-previous', help: 'previous match', hint: 'matches' },
  { scope: 'find', keys: ['down', 'ctrl+n'], action: 'find-next', help: 'next match' },
  {
    scope: 'find',
    keys: ['escape', 'ctrl+c'],
    action: 'field-close',
    help: 'close the field (matches stay marked for n/N; an empty search clears them)',
    hint: 'close',
  },

  {
    scope: 'label',
    keys: ['return'],
    action: 'field-submit',
    help: 'save the label (empty: remove it), as /label does',
    hint: 'save',
  },
  {
    scope: 'label',
    keys: ['escape', 'ctrl+c'],
    action: 'field-close',
    help: 'leave the label as it was',
    hint: 'cancel',
  },

  {
    scope: 'name',
    keys: ['return'],
    action: 'field-submit',
    help: 'save the session name (empty: remove it), as /name TEXT does',
    hint: 'save',
  },
  {
    scope: 'name',
    keys: ['escape', 'ctrl+c'],
    action: 'field-close',
    help: 'leave the name as it was',
    hint: 'cancel',
  },

  {
    scope: 'help',
    keys: ['escape', '?', 'q', 'return', 'ctrl+c'],
    action: 'close-help',
    help: 'close this overlay',
    hint: 'close',
  },
  { scope: 'help', keys: ['up', 'k'], action: 'scroll-up', help: 'scroll up', hint: 'scroll' },
  { scope: 'help', keys: ['down', 'j'], action: 'scroll-down', help: 'scroll down' },

  { scope: 'queue', keys: ['up', 'k'], action: 'select-up', help: 'previous queued prompt', hint: 'choose' },
  { scope: 'queue', keys: ['down', 'j'], action: 'select-down', help: 'next queued prompt' },
  {
    scope: 'queue',
    keys: ['e', 'return'],
    action: 'queue-edit',
    help: 'take the prompt out of the queue into the editor, to change it and send it again',
    hint: 'edit',
  },
  {
    scope: 'queue',
    keys: ['d', 'delete', 'backspace'],
    action: 'queue-remove',
    help: 'remove the prompt from the queue (it is not sent)',
    hint: 'remove',
  },
  { scope: 'queue', keys: ['escape', 'q'], action: 'close-queue', help: 'close the list', hint: 'close' },

  {
    scope: 'setup',
    keys: ['return'],
    action: 'use-server',
    help: 'use the server and its first model for this session',
    hint: 'use it',
  },
  {
    scope: 'setup',
    keys: ['escape', 'q'],
    action: 'close-setup',
    help: 'close the panel and browse without a model (/connect opens it again)',
    hint: 'browse',
  },
  { scope: 'setup', keys: ['up', 'k'], action: 'select-up', help: 'previous server', hint: 'choose' },
  { scope: 'setup', keys: ['down', 'j'], action: 'select-down', help: 'next server' },
  { scope: 'setup', keys: ['r'], action: 'rescan', help: 'look for local servers again', hint: 'look again' },
  { scope: 'setup', keys: ['ctrl+c'], action: 'quit', help: 'quit' },

  { scope: 'picker', keys: ['up', 'ctrl+p'], action: 'select-up', help: 'previous session', hint: 'choose' },
  { scope: 'picker', keys: ['down', 'ctrl+n'], action: 'select-down', help: 'next session' },
  { scope: 'picker', keys: ['pageup'], action: 'select-page-up', help: 'a page up' },
  { scope: 'picker', keys: ['pagedown'], action: 'select-page-down', help: 'a page down' },
  { scope: 'picker', keys: ['return'], action: 'open-session', help: 'open the session', hint: 'open' },
  {
    scope: 'picker',
    keys: ['tab'],
    action: 'toggle-all',
    help: 'sessions of this directory, or of every directory',
    hint: 'all dirs',
  },
  { scope: 'picker', keys: ['backspace', 'delete'], action: 'delete-back', help: 'delete a character of the filter' },
  { scope: 'picker', keys: ['ctrl+w', 'meta+backspace'], action: 'delete-word', help: 'delete a word of the filter' },
  { scope: 'picker', keys: ['ctrl+u'], action: 'delete-to-start', help: 'clear the filter' },
  { scope: 'picker', keys: ['escape', 'ctrl+c'], action: 'quit', help: 'quit without opening a session', hint: 'quit' },

  {
    scope: 'global',
    keys: ['tab'],
    action: 'focus-next',
    help: 'focus the next pane (narrow screens: show it); in the prompt, on a /command being typed: complete it',
    hint: 'panes',
  },
  { scope: 'global', keys: ['shift+tab'], action: 'focus-previous', help: 'focus the previous pane' },
  {
    scope: 'global',
    keys: ['escape'],
    action: 'interrupt',
    help: 'stop the running turn (stream or tool is cancelled)',
    hint: 'stop',
    when: 'running',
  },
  { scope: 'global', keys: ['ctrl+c'], action: 'interrupt', help: 'stop the running turn', when: 'running' },
  {
    scope: 'global',
    keys: ['ctrl+c'],
    action: 'quit',
    help: 'quit (when idle; clears typed text first)',
    hint: 'quit',
  },
  { scope: 'global', keys: ['pageup'], action: 'page-up', help: 'scroll the transcript up a page' },
  { scope: 'global', keys: ['pagedown'], action: 'page-down', help: 'scroll the transcript down a page' },
  { scope: 'global', keys: ['escape'], action: 'focus-input', help: 'back to the prompt', when: 'idle' },
  {
    scope: 'global',
    keys: ['ctrl+o'],
    action: 'plan',
    help: "open the branch's plan full size (its steps, the one in progress, the last action; live), as /plan does",
  },
  {
    scope: 'global',
    keys: ['?'],
    action: 'help',
    help: 'show every key (in the input: when it is empty)',
    hint: 'keys',
    when: 'not-typing',
  },

  {
    scope: 'input',
    keys: ['return'],
    action: 'steer',
    help: 'while a turn runs: steer it (the text goes in at its next model call; again before that: replaces it)',
    hint: 'steer',
    when: 'running',
  },
  {
    scope: 'input',
    keys: ['meta+return'],
    action: 'queue',
    help: 'while a turn runs: queue the prompt for after the turn (/queue lists them)',
    hint: 'queue',
    when: 'running',
  },
  {
    scope: 'input',
    keys: ['return', 'meta+return'],
    action: 'submit',
    help: 'send the prompt; /help lists commands',
    hint: 'send',
    hintWhen: 'writable',
    when: 'idle',
  },
  { scope: 'input', keys: ['ctrl+j'], action: 'newline', help: 'new line in the prompt' },
  {
    scope: 'input',
    keys: ['ctrl+r'],
    action: 'history-search',
    help: 'search the prompt history for what the prompt holds (again: older matches; ↓ back to what you typed)',
  },
  {
    scope: 'input',
    keys: ['ctrl+g'],
    action: 'edit-externally',
    help: 'edit the prompt in $EDITOR (the screen comes back when it exits; what it saved is the prompt)',
  },
  {
    scope: 'input',
    keys: ['ctrl+x'],
    action: 'expand-pastes',
    help: 'unfold the long pastes in the prompt ([pasted N lines #k]; folded, they are sent whole)',
  },
  { scope: 'input', keys: ['up'], action: 'history-previous', help: 'previous prompt (or line up)' },
  { scope: 'input', keys: ['down'], action: 'history-next', help: 'next prompt (or line down)' },
  { scope: 'input', keys: ['left'], action: 'cursor-left', help: 'move the cursor' },
  { scope: 'input', keys: ['right'], action: 'cursor-right', help: 'move the cursor' },
  { scope: 'input', keys: ['home', 'ctrl+a'], action: 'line-start', help: 'start of the line' },
  { scope: 'input', keys: ['end', 'ctrl+e'], action: 'line-end', help: 'end of the line' },
  { scope: 'input', keys: ['meta+b', 'ctrl+left'], action: 'word-left', help: 'word left' },
  { scope: 'input', keys: ['meta+f', 'ctrl+right'], action: 'word-right', help: 'word right' },
  {
    scope: 'input',
    keys: ['backspace', 'delete'],
    action: 'delete-back',
    help: 'delete the character before the cursor',
  },
  {
    scope: 'input',
    keys: ['ctrl+d'],
    action: 'quit-if-empty',
    help: 'delete under the cursor; on an empty idle line, quit',
  },
  {
    scope: 'input',
    keys: ['ctrl+w', 'meta+backspace', 'meta+delete'],
    action: 'delete-word',
    help: 'delete the word before the cursor',
  },
  { scope: 'input', keys: ['ctrl+u'], action: 'delete-to-start', help: 'delete to the start of the line' },
  { scope: 'input', keys: ['ctrl+k'], action: 'delete-to-end', help: 'delete to the end of the line' },

  { scope: 'tree', keys: ['up', 'k'], action: 'select-up', help: 'previous entry', hint: 'entries' },
  { scope: 'tree', keys: ['down', 'j'], action: 'select-down', help: 'next entry' },
  {
    scope: 'tree',
    keys: ['left', 'h'],
    action: 'sibling-previous',
    help: 'previous sibling branch at the nearest branch point',
    hint: 'branch',
  },
  { scope: 'tree', keys: ['right', 'l'], action: 'sibling-next', help: 'next sibling branch' },
  {
    scope: 'tree',
    keys: ['return'],
    action: 'unfold',
    help: "on a sub-agent's task call (⧉): unfold its entries beneath it, read from its file (⏎ again or ← folds them; → unfolds too)",
    hint: 'unfold',
    when: 'on-task-call',
  },
  {
    scope: 'tree',
    keys: ['return'],
    action: 'unfold',
    help: "on an unfolded task call (⧉): fold its sub-agent's entries again",
    hint: 'fold',
    when: 'on-unfolded-task-call',
  },
  {
    scope: 'tree',
    keys: ['return'],
    action: 'checkout',
    help: 'check out the entry: the transcript follows, the next prompt branches from it (offers its files too)',
    hint: 'check out',
    hintWhen: 'writable',
  },
  {
    scope: 'tree',
    keys: ['u'],
    action: 'restore-files',
    help: 'restore the workspace files to how they were at the entry (shows what changes, asks y/n)',
    hint: 'restore files',
    hintWhen: 'writable',
  },
  {
    scope: 'tree',
    keys: ['r'],
    action: 'retry',
    help: 'on an answer: ask the model again from the same point, as a new sibling branch (the old answer stays)',
    hint: 'retry',
    hintWhen: 'writable',
  },
  {
    scope: 'tree',
    keys: ['e'],
    action: 'edit-prompt',
    help: 'on a prompt of yours: put its text in the editor; sending it makes a sibling branch',
    hint: 'edit',
    hintWhen: 'writable',
  },
  {
    scope: 'tree',
    keys: ['/'],
    action: 'find-open',
    help: 'find entries by text (prompts, answers, tools and subjects, labels): matches are marked as you type',
    hint: 'find',
  },
  { scope: 'tree', keys: ['n'], action: 'find-next', help: 'next match of the last search' },
  { scope: 'tree', keys: ['N'], action: 'find-previous', help: 'previous match of the last search' },
  {
    scope: 'tree',
    keys: ['L'],
    action: 'label-open',
    help: 'label the entry (a field; Enter saves, Esc cancels)',
    hint: 'label',
    hintWhen: 'writable',
  },
  {
    scope: 'tree',
    keys: ['R'],
    action: 'rename-open',
    help: 'name the session (a field; Enter saves, Esc cancels): the picker and tole sessions show it',
    hint: 'name session',
    hintWhen: 'writable',
  },
  {
    scope: 'tree',
    keys: ['t'],
    action: 'select-branch-tip',
    help: "jump to the tip of the entry's branch (its newest entry): ← or → then t continues the other branch",
    hint: 'tip',
  },
  { scope: 'tree', keys: ['g', 'end'], action: 'select-newest', help: 'jump to the newest leaf', hint: 'newest' },
  { scope: 'tree', keys: ['c'], action: 'select-head', help: 'jump to the checked-out entry (◀)' },
  { scope: 'tree', keys: ['home'], action: 'select-first', help: 'jump to the first entry' },
  { scope: 'tree', keys: ['ctrl+b'], action: 'select-page-up', help: 'a page up' },
  { scope: 'tree', keys: ['ctrl+f'], action: 'select-page-down', help: 'a page down' },

  { scope: 'transcript', keys: ['up', 'k'], action: 'scroll-up', help: 'scroll up a line', hint: 'scroll' },
  { scope: 'transcript', keys: ['down', 'j'], action: 'scroll-down', help: 'scroll down a line' },
  { scope: 'transcript', keys: ['home', 'g'], action: 'scroll-top', help: 'top of the transcript', hint: 'top' },
  {
    scope: 'transcript',
    keys: ['end', 'G'],
    action: 'scroll-bottom',
    help: 'bottom (follows new output)',
    hint: 'bottom',
  },

  { scope: 'usage', keys: ['up', 'k'], action: 'scroll-up', help: 'scroll up', hint: 'scroll' },
  { scope: 'usage', keys: ['down', 'j'], action: 'scroll-down', help: 'scroll down' },
  { scope: 'registers', keys: ['up', 'k'], action: 'scroll-up', help: 'scroll up', hint: 'scroll' },
  { scope: 'registers', keys: ['down', 'j'], action: 'scroll-down', help: 'scroll down' },
];

/** What the Ink key event carries, reduced to what a chord needs. */
interface KeyEvent {
  readonly upArrow: boolean;
  readonly downArrow: boolean;
  readonly leftArrow: boolean;
  readonly rightArrow: boolean;
  readonly pageUp: boolean;
  readonly pageDown: boolean;
  readonly home: boolean;
  readonly end: boolean;
  readonly return: boolean;
  readonly escape: boolean;
  readonly ctrl: boolean;
  readonly shift: boolean;
  readonly tab: boolean;
  readonly backspace: boolean;
  readonly delete: boolean;
  readonly meta: boolean;
}

const NAMED: readonly [keyof KeyEvent, string][] = [
  ['upArrow', 'up'],
  ['downArrow', 'down'],
  ['leftArrow', 'left'],
  ['rightArrow', 'right'],
  ['pageUp', 'pageup'],
  ['pageDown', 'pagedown'],
  ['home', 'home'],
  ['end', 'end'],
  ['return', 'return'],
  ['tab', 'tab'],
  ['backspace', 'backspace'],
  ['delete', 'delete'],
];

/** `ctrl+c`, `shift+tab`, `meta+b`, `y`, `G`; null for text that is not a key (a paste). */
export function chordOf(input: string, key: KeyEvent): string | null {
  for (const [flag, name] of NAMED) {
    if (!key[flag]) continue;
    const mods = `${key.ctrl ? 'ctrl+' : ''}${key.meta && !key.escape ? 'meta+' : ''}${key.shift && name === 'tab' ? 'shift+' : ''}`;
    return `${mods}${name}`;
  }
  if (key.escape) return 'escape';
  if (input === '\n') return 'ctrl+j';
  if (key.ctrl && input.length === 1) return `ctrl+${input.toLowerCase()}`;
  if (key.meta && input.length === 1) return `meta+${input}`;
  if ([...input].length === 1) return input;
  return null;
}

export interface KeyContext {
  /** Open layers and focus, innermost first: e.g. `['approval']`, `['help']`, `['tree', 'global']`. */
  readonly scopes: readonly Scope[];
  readonly conditions: ReadonlySet<Condition>;
}

/** The binding a chord triggers in the context, or null (in the input, unbound text is typed). */
export function resolveKey(chord: string, context: KeyContext, keymap: readonly Binding[] = KEYMAP): Binding | null {
  for (const scope of context.scopes) {
    for (const binding of keymap) {
      if (binding.scope !== scope || !binding.keys.includes(chord)) continue;
      if (binding.when && !context.conditions.has(binding.when)) continue;
      return binding;
    }
  }
  return null;
}

/** The conditions bindings may ask for, from the state of the screen. */
export function keyConditions(state: {
  readonly running: boolean;
  readonly focus: PaneId;
  readonly editorEmpty: boolean;
  readonly offers: ApprovalOffers | null;
  readonly readOnly?: boolean;
  /** The tree has the keyboard on a `task` call's row: folded or unfolded; null (or absent) on any other row. */
  readonly taskCall?: 'folded' | 'unfolded' | null;
  /** The restore prompt may restore (`restoreOffered` of its dialog). */
  readonly restoreOffered?: boolean;
  /** The approval box has rows off screen to scroll to. */
  readonly approvalScrolls?: boolean;
}): Set<Condition> {
  const set = new Set<Condition>([state.running ? 'running' : 'idle']);
  if (!state.readOnly) set.add('writable');
  if (state.taskCall === 'folded') set.add('on-task-call');
  if (state.taskCall === 'unfolded') set.add('on-unfolded-task-call');
  if (state.focus !== 'input' || state.editorEmpty) set.add('not-typing');
  if (state.offers?.allow) set.add('allow-offered');
  if (state.offers?.prefix) set.add('prefix-offered');
  if (state.offers?.edit) set.add('edit-offered');
  if (state.offers && state.offers.approve !== false) set.add('approve-offered');
  if (state.restoreOffered) set.add('restore-offered');
  if (state.approvalScrolls) set.add('approval-scrolls');
  return set;
}

/** The scopes that hold the keyboard, innermost first. */
export function activeScopes(
  focus: PaneId,
  approvalOpen: boolean,
  helpOpen: boolean,
  setupOpen = false,
  dialog: 'restore' | 'checkout' | null = null,
  queueOpen = false,
  field: 'find' | 'label' | 'name' | null = null,
  completionOpen = false,
): Scope[] {
  if (approvalOpen) return ['approval'];
  if (dialog) return [dialog];
  // A field holds the keyboard: the rest of the keymap is suspended while it is open.
  if (field) return [field];
  if (helpOpen) return ['help'];
  if (setupOpen) return ['setup'];
  if (queueOpen) return ['queue'];
  // The completion popup takes its keys first; typing still goes to the prompt.
  if (completionOpen && focus === 'input') return ['completion', focus, 'global'];
  return [focus, 'global'];
}

const KEY_LABELS: Readonly<Record<string, string>> = {
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  return: '⏎',
  escape: 'Esc',
  tab: 'Tab',
  'shift+tab': 'S-Tab',
  pageup: 'PgUp',
  pagedown: 'PgDn',
  home: 'Home',
  end: 'End',
  backspace: 'Bksp',
  delete: 'Del',
};

export function keyLabel(chord: string): string {
  const label = KEY_LABELS[chord];
  if (label) return label;
  if (chord.startsWith('ctrl+')) return `^${keyLabel(chord.slice(5)).toUpperCase()}`;
  if (chord.startsWith('meta+')) return `M-${keyLabel(chord.slice(5))}`;
  return chord;
}

/** Status-bar hints for a set of scopes: `↑↓ entries  ←→ branch  ⏎ check out`. */
export function hintsFor(
  scopes: readonly Scope[],
  conditions: ReadonlySet<Condition>,
  keymap: readonly Binding[] = KEYMAP,
): { keys: string; hint: string }[] {
  const hints: { keys: string; hint: string }[] = [];
  const seen = new Set<string>();
  for (const scope of scopes) {
    for (const binding of keymap) {
      if (binding.scope !== scope || !binding.hint || binding.keys.length === 0 || seen.has(binding.hint)) continue;
      if (binding.when && !conditions.has(binding.when)) continue;
      if (binding.hintWhen && !conditions.has(binding.hintWhen)) continue;
      // A key another binding takes here (⏎ unfolds on a task call) is hinted as what it does.
      if (binding.keys.every((chord) => resolveKey(chord, { scopes, conditions }, keymap) !== binding)) continue;
      seen.add(binding.hint);
      const keys = pairedLabel(binding, keymap);
      hints.push({ keys, hint: binding.hint });
    }
  }
  return hints;
}

/** The label of the first key bound to an action (in a scope, when given): `Tab`, `^N`; null when none is. */
export function keyFor(action: Action, keymap: readonly Binding[] = KEYMAP, scope?: Scope): string | null {
  const binding = keymap.find(
    (b) => b.action === action && b.keys.length > 0 && (scope === undefined || b.scope === scope),
  );
  return binding ? keyLabel(binding.keys[0]!) : null;
}

/** `↑↓` for a binding whose opposite is bound next to it in the same scope, else its first key. */
function pairedLabel(binding: Binding, keymap: readonly Binding[]): string {
  const first = binding.keys[0]!;
  const pairs: Readonly<Record<string, string>> = { up: 'down', left: 'right' };
  const other = pairs[first];
  if (other && keymap.some((b) => b.scope === binding.scope && b.keys[0] === other))
    return `${keyLabel(first)}${keyLabel(other)}`;
  return keyLabel(first);
}
