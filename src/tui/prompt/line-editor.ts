import { graphemes, stripControls } from '../text/cell-width';

/** The prompt being typed: its text and the cursor (a UTF-16 offset on a grapheme boundary). */
export interface EditorState {
  readonly value: string;
  readonly cursor: number;
}

export type EditAction =
  | 'cursor-left'
  | 'cursor-right'
  | 'line-start'
  | 'line-end'
  | 'word-left'
  | 'word-right'
  | 'delete-back'
  | 'delete-forward'
  | 'delete-word'
  | 'delete-to-start'
  | 'delete-to-end'
  | 'newline';

export const EMPTY_EDITOR: EditorState = { value: '', cursor: 0 };

/** A prompt longer than this is refused character by character (a runaway paste stops here). */
export const MAX_PROMPT_CHARS = 200_000;

/** Grapheme boundaries of `value`, 0 and `value.length` included. */
function boundaries(value: string): number[] {
  const out = [0];
  let at = 0;
  for (const g of graphemes(value)) {
    at += g.text.length;
    out.push(at);
  }
  return out;
}

function previousBoundary(value: string, cursor: number): number {
  const all = boundaries(value);
  for (let i = all.length - 1; i >= 0; i--) if (all[i]! < cursor) return all[i]!;
  return 0;
}

function nextBoundary(value: string, cursor: number): number {
  for (const b of boundaries(value)) if (b > cursor) return b;
  return value.length;
}

function wordLeft(value: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(value[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(value[i - 1]!)) i--;
  return i;
}

function wordRight(value: string, cursor: number): number {
  let i = cursor;
  while (i < value.length && /\s/.test(value[i]!)) i++;
  while (i < value.length && !/\s/.test(value[i]!)) i++;
  return i;
}

function lineStart(value: string, cursor: number): number {
  return value.lastIndexOf('\n', cursor - 1) + 1;
}

function lineEnd(value: string, cursor: number): number {
  const end = value.indexOf('\n', cursor);
  return end === -1 ? value.length : end;
}

function cut(state: EditorState, from: number, to: number): EditorState {
  return { value: state.value.slice(0, from) + state.value.slice(to), cursor: from };
}

/** Typed or pasted text at the cursor. Carriage returns become newlines; control bytes are dropped. */
export function insertText(state: EditorState, text: string): EditorState {
  const clean = stripControls(text.replace(/\r\n?/g, '\n'));
  const room = MAX_PROMPT_CHARS - state.value.length;
  if (room <= 0) return state;
  const piece = clean.slice(0, room);
  return {
    value: state.value.slice(0, state.cursor) + piece + state.value.slice(state.cursor),
    cursor: state.cursor + piece.length,
  };
}

export function applyEdit(state: EditorState, action: EditAction): EditorState {
  const { value, cursor } = state;
  switch (action) {
    case 'cursor-left':
      return { value, cursor: previousBoundary(value, cursor) };
    case 'cursor-right':
      return { value, cursor: nextBoundary(value, cursor) };
    case 'line-start':
      return { value, cursor: lineStart(value, cursor) };
    case 'line-end':
      return { value, cursor: lineEnd(value, cursor) };
    case 'word-left':
      return { value, cursor: wordLeft(value, cursor) };
    case 'word-right':
      return { value, cursor: wordRight(value, cursor) };
    case 'delete-back':
      return cursor === 0 ? state : cut(state, previousBoundary(value, cursor), cursor);
    case 'delete-forward':
      return cursor === value.length ? state : cut(state, cursor, nextBoundary(value, cursor));
    case 'delete-word':
      return cut(state, wordLeft(value, cursor), cursor);
    case 'delete-to-start':
      return cut(state, lineStart(value, cursor), cursor);
    case 'delete-to-end':
      return cut(state, cursor, lineEnd(value, cursor));
    case 'newline':
      return insertText(state, '\n');
  }
}

/** Moves the cursor one line up or down in a multi-line prompt; null when there is no such line. */
export function verticalMove(state: EditorState, direction: -1 | 1): EditorState | null {
  const { value, cursor } = state;
  const start = lineStart(value, cursor);
  const column = cursor - start;
  if (direction === -1) {
    if (start === 0) return null;
    const previousStart = lineStart(value, start - 1);
    return { value, cursor: Math.min(previousStart + column, start - 1) };
  }
  const end = lineEnd(value, cursor);
  if (end === value.length) return null;
  const nextStart = end + 1;
  return { value, cursor: Math.min(nextStart + column, lineEnd(value, nextStart)) };
}

export interface EditorRow {
  readonly text: string;
  /** Cell column of the cursor on this row, or null when the cursor is on another row. */
  readonly cursorColumn: number | null;
}

/** The prompt as rows of at most `width` cells (hard-wrapped), with the cursor placed. */
export function editorRows(state: EditorState, width: number): EditorRow[] {
  const rows: EditorRow[] = [];
  const usable = Math.max(2, width);
  let offset = 0;
  for (const logical of state.value.split('\n')) {
    let text = '';
    let used = 0;
    let cursorColumn: number | null = null;
    let at = offset;
    for (const g of graphemes(logical)) {
      if (used + g.width > usable - 1) {
        rows.push({ text, cursorColumn });
        text = '';
        used = 0;
        cursorColumn = null;
      }
      if (at === state.cursor) cursorColumn = used;
      text += g.text;
      used += g.width;
      at += g.text.length;
    }
    if (at === state.cursor) cursorColumn = used;
    rows.push({ text, cursorColumn });
    offset = at + 1;
  }
  return rows;
}
