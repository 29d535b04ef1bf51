import type { Key } from 'ink';
import { stripControls } from '../text/cell-width';
import { applyEdit, insertText, type EditAction, type EditorState } from '../prompt/line-editor';
import { chordOf, resolveKey, type Action, type Binding } from './keymap';

/**
 * The keymap's actions that edit text, and the edit each is. They are bound once, in the prompt's
 * scope (`input`); every field that edits text (the approval box's edited command, the tree's
 * find, label and name fields) reads its keys from there, as the config remapped them.
 */
const EDITS: ReadonlyMap<Action, EditAction> = new Map<Action, EditAction>([
  ['cursor-left', 'cursor-left'],
  ['cursor-right', 'cursor-right'],
  ['line-start', 'line-start'],
  ['line-end', 'line-end'],
  ['word-left', 'word-left'],
  ['word-right', 'word-right'],
  ['delete-back', 'delete-back'],
  ['delete-word', 'delete-word'],
  ['delete-to-start', 'delete-to-start'],
  ['delete-to-end', 'delete-to-end'],
  ['newline', 'newline'],
]);

/** The edit an action of the keymap is, or null when it is not one. */
export function editOf(action: Action): EditAction | null {
  return EDITS.get(action) ?? null;
}

const NO_CONDITIONS: ReadonlySet<never> = new Set();

/**
 * What a chord does to the text of a field: the edit its key does in the prompt, or null. The
 * prompt's Ctrl-D (quit on an empty line, else delete under the cursor) deletes under the cursor:
 * a field never quits.
 */
export function fieldEditOf(chord: string, keymap: readonly Binding[]): EditAction | null {
  const binding = resolveKey(chord, { scopes: ['input'], conditions: NO_CONDITIONS }, keymap);
  if (!binding) return null;
  return binding.action === 'quit-if-empty' ? 'delete-forward' : editOf(binding.action);
}

/** What a field holds: one line (a search, a label, a name) or several (a command). */
export type FieldLines = 'one' | 'many';

/** Pasted or typed text as a field takes it: control bytes dropped, on one line when the field has one (newlines are spaces). */
export function fieldText(text: string, lines: FieldLines): string {
  const unified = text.replace(/\r\n?/g, '\n');
  return stripControls(lines === 'one' ? unified.replace(/\n/g, ' ') : unified);
}

/**
 * A key typed into a field's text: its edit (the prompt's editing keys), its text, or no change
 * at all for a chord no edit binds (Ctrl or Alt with a letter never types the letter). The caller
 * has taken the keys its field answers to itself (⏎, Esc, ↑↓) first.
 */
export function typeInText(
  editor: EditorState,
  input: string,
  key: Key,
  keymap: readonly Binding[],
  lines: FieldLines,
): EditorState {
  const chord = chordOf(input, key);
  const edit = chord === null ? null : fieldEditOf(chord, keymap);
  if (edit === 'newline') return lines === 'many' ? applyEdit(editor, edit) : editor;
  if (edit) return applyEdit(editor, edit);
  // A key with a name of its own (Tab, ↑, Ctrl-T, Alt-z) is no text; a grapheme or a run of text is.
  if ((chord !== null && chord !== input) || key.ctrl || key.meta || input === '') return editor;
  return insertText(editor, fieldText(input, lines));
}
