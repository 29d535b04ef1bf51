import { graphemes } from '../text/cell-width';
import type { EditorState } from './line-editor';

/** What a one-line field shows of its text in its width, scrolled so that the cursor is in sight. */
export interface LineWindow {
  /** The UTF-16 offset of the first character shown: the next window starts from it. */
  readonly start: number;
  /** The cells shown, `…` at an edge where text is hidden beyond it. */
  readonly text: string;
  /** The cell of `text` the cursor is on (`text`'s width when it is after the last character). */
  readonly cursorColumn: number;
}

const MORE = '…';

/**
 * The window of `state`'s text (one line) that `width` cells show. It starts where the last one
 * did (`previousStart`), so the text stands still while the cursor moves within it; it moves
 * only as far as the cursor needs, and back when text after it was deleted and room is left.
 * The cursor after the last character takes a cell of its own, kept free while the end is shown.
 */
export function lineWindow(state: EditorState, width: number, previousStart = 0): LineWindow {
  const cells = Math.max(1, width);
  const all = graphemes(state.value);
  const offsets: number[] = [];
  let at = 0;
  for (const g of all) {
    offsets.push(at);
    at += g.text.length;
  }
  offsets.push(at);
  const cursor = Math.max(
    0,
    offsets.findIndex((offset) => offset >= state.cursor),
  );
  // Cells from grapheme `from` to the end, and the cell after the last one: the cursor's when it
  // is there, kept wherever it is so that the text does not shift as the cursor comes and goes.
  const tail: number[] = new Array(all.length + 1);
  tail[all.length] = 1;
  for (let i = all.length - 1; i >= 0; i--) tail[i] = tail[i + 1]! + all[i]!.width;
  const left = (from: number): number => (from > 0 ? 1 : 0);
  const fitsToEnd = (from: number): boolean => left(from) + tail[from]! <= cells;
  // Cells from `from` to the cursor's cell, that cell included.
  const upToCursor = (from: number): number =>
    tail[from]! - tail[cursor]! + (cursor < all.length ? all[cursor]!.width : 1);
  const needs = (from: number): number => left(from) + upToCursor(from) + (fitsToEnd(from) ? 0 : 1);
  let from = Math.min(
    cursor,
    Math.max(
      0,
      offsets.findIndex((offset) => offset >= previousStart),
    ),
  );
  while (from < cursor && needs(from) > cells) from++;
  while (from > 0 && fitsToEnd(from - 1)) from--;
  // A width too small for the marks and the cursor's cell (a wide character) drops a mark first.
  const leftMark = from > 0 && upToCursor(from) < cells ? 1 : 0;
  const rightMark = !fitsToEnd(from) && leftMark + upToCursor(from) < cells ? 1 : 0;
  const room = cells - leftMark - rightMark;
  let text = leftMark ? MORE : '';
  let used = 0;
  let cursorColumn = leftMark;
  let i = from;
  for (; i < all.length && used + all[i]!.width <= room; i++) {
    if (i === cursor) cursorColumn = leftMark + used;
    text += all[i]!.text;
    used += all[i]!.width;
  }
  if (i === cursor) cursorColumn = leftMark + used;
  if (rightMark && i < all.length) text += MORE;
  return { start: offsets[from]!, text, cursorColumn };
}
