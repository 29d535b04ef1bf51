import stringWidth from 'string-width';
import { visibleControls } from '../../core/terminal-text';
import { drawnEmoji } from './drawn-emoji';
import { simpleWidth } from './simple-width';

/**
 * Terminal cell widths. Every pane is cut to its width here, before Ink sees it, so that a wide
 * character or a long line can never push a border or wrap into the next pane.
 */

let segmenter: Intl.Segmenter | undefined;

/** Made on first use: the first segmenter of a process loads the break rules (~10 ms), and plain text needs none. */
function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter;
}

/**
 * Cells one grapheme takes, as Ink measures it (`string-width`, the same package and version Ink
 * lays out with), so that tole and Ink never disagree about where a line ends: measured as drawn,
 * without the emoji parts terminals disagree on (drawn-emoji.ts). Control characters are expected
 * to be replaced before this.
 */
function graphemeWidth(grapheme: string): number {
  return simpleWidth(grapheme) ?? stringWidth(drawnEmoji(grapheme));
}

function isPlainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/**
 * Widths of strings that are not plain ASCII, remembered: every frame measures the same titles,
 * hints and pane lines again, and grapheme segmentation is the costly part (profiled at ~5% of a
 * streamed frame's CPU, most of it the status bar's hints). Cleared when full; long texts are not kept.
 */
const measured = new Map<string, number>();
const MAX_MEASURED = 10_000;
const MAX_MEASURED_KEY = 500;

/** Cells a string takes on screen. */
export function cellWidth(text: string): number {
  if (isPlainAscii(text)) return text.length;
  let width = measured.get(text) ?? simpleWidth(text);
  if (width !== undefined) return width;
  width = 0;
  for (const { segment } of graphemeSegmenter().segment(text)) width += graphemeWidth(segment);
  if (text.length <= MAX_MEASURED_KEY) {
    if (measured.size >= MAX_MEASURED) measured.clear();
    measured.set(text, width);
  }
  return width;
}

/** Graphemes of `text` with their widths (plain ASCII and simple text take the fast path). */
export function graphemes(text: string): { text: string; width: number }[] {
  if (isPlainAscii(text)) return Array.from(text, (ch) => ({ text: ch, width: 1 }));
  // Simple characters (see simple-width) are each a grapheme of their own.
  if (simpleWidth(text) !== undefined) return Array.from(text, (ch) => ({ text: ch, width: simpleWidth(ch)! }));
  return Array.from(graphemeSegmenter().segment(text), ({ segment }) => ({
    text: segment,
    width: graphemeWidth(segment),
  }));
}

/**
 * Expands tabs and shows (never lets act) what would move the cursor or change the terminal:
 * escapes, control bytes, bidi overrides, as tole's one terminal sanitizer shows them.
 */
export function sanitize(text: string): string {
  return visibleControls(text.replace(/\t/g, '  '));
}

/** Drops control bytes (but not newlines) and expands tabs: for text typed or pasted into the prompt. */
export function stripControls(text: string): string {
  return text.replace(/\t/g, '  ').replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '');
}

/** Cuts `text` to at most `width` cells, ending with `…` when anything was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (cellWidth(text) <= width) return text;
  let used = 0;
  let out = '';
  for (const g of graphemes(text)) {
    if (used + g.width > width - 1) break;
    out += g.text;
    used += g.width;
  }
  return `${out}…`;
}

/** Pads with spaces (or cuts) to exactly `width` cells. */
export function fit(text: string, width: number): string {
  const cut = truncate(text, width);
  return cut + ' '.repeat(Math.max(0, width - cellWidth(cut)));
}
