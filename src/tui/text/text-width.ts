/**
 * Display widths of text, remembered: a frame measures the same pane lines again and again, and
 * `string-width` (grapheme segmentation) is the costliest step of laying them out. Also swapped
 * in for Ink's `widest-line` by the bundler (scripts/ink-output-plugin.mjs).
 */
import stringWidth from 'string-width';
import { drawnEmoji } from './drawn-emoji';
import { simpleStyledWidth } from './simple-width';

const widths = new Map<string, number>();
const MAX_WIDTHS = 20_000;
/** Longer texts are measured each time: a few of them would hold more memory than all the rest. */
const MAX_KEY = 2_000;

export function widthOf(text: string): number {
  let width = widths.get(text);
  if (width === undefined) {
    width = simpleStyledWidth(text) ?? stringWidth(drawnEmoji(text));
    if (text.length > MAX_KEY) return width;
    if (widths.size >= MAX_WIDTHS) widths.clear();
    widths.set(text, width);
  }
  return width;
}

const widest = new Map<string, number>();
/**
 * Long texts measured lately: a pane drawn as one text node (src/tui/panes/LinesPane.tsx) is a new long
 * text each frame, which Ink measures three times in that frame (layout, render, clip). A few are
 * kept, so they cannot hold much memory.
 */
const widestLong = new Map<string, number>();
const MAX_LONG = 8;

/** The width of the widest line of `text`. */
export default function widestLine(text: string): number {
  const long = text.length > MAX_KEY;
  let width = long ? widestLong.get(text) : widest.get(text);
  if (width === undefined) {
    width = 0;
    for (const line of text.split('\n')) width = Math.max(width, widthOf(line));
    const kept = long ? widestLong : widest;
    if (kept.size >= (long ? MAX_LONG : MAX_WIDTHS)) kept.clear();
    kept.set(text, width);
  }
  return width;
}

/** Forgets every width (tests compare a cold layout with a warm one). */
export function clearWidths(): void {
  widths.clear();
  widest.clear();
  widestLong.clear();
}
