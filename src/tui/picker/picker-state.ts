import type { Action } from '../input/keymap';
import { applyEdit, EMPTY_EDITOR, insertText, type EditorState } from '../prompt/line-editor';

/** The picker's own state: what is typed, which sessions are listed, which one is highlighted. */
export interface PickerState {
  readonly filter: EditorState;
  readonly all: boolean;
  readonly index: number;
}

export function initialPicker(all: boolean): PickerState {
  return { filter: EMPTY_EDITOR, all, index: 0 };
}

/** A key's effect on the picker; `count` is how many sessions are listed now, `page` how many fit. */
export function pickerAction(state: PickerState, action: Action, count: number, page: number): PickerState {
  const clamp = (index: number): number => Math.max(0, Math.min(Math.max(0, count - 1), index));
  switch (action) {
    case 'select-up':
      return { ...state, index: clamp(state.index - 1) };
    case 'select-down':
      return { ...state, index: clamp(state.index + 1) };
    case 'select-page-up':
      return { ...state, index: clamp(state.index - page) };
    case 'select-page-down':
      return { ...state, index: clamp(state.index + page) };
    case 'toggle-all':
      return { ...state, all: !state.all, index: 0 };
    case 'delete-back':
    case 'delete-word':
    case 'delete-to-start':
      return { ...state, filter: applyEdit(state.filter, action), index: 0 };
    default:
      return state;
  }
}

/** Typed text narrows the list; the highlight goes back to the newest match. */
export function typeIntoFilter(state: PickerState, text: string): PickerState {
  const clean = text.replace(/[\r\n\t]/g, ' ');
  return { ...state, filter: insertText(state.filter, clean), index: 0 };
}
