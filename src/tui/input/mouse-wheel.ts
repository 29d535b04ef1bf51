import type { ScreenLayout } from '../panes/layout';
import type { PaneId } from './keymap';

/** A mouse report as Ink hands it (its ESC taken off): `[<button;column;row` then M (press) or m (release). */
const MOUSE_REPORT = /^\[<(\d+);(\d+);(\d+)[Mm]$/;

/** Lines one notch of the wheel scrolls. */
export const WHEEL_LINES = 3;

export interface WheelNotch {
  /** -1 up, 1 down. */
  readonly direction: -1 | 1;
  /** 1-based, as the terminal counts. */
  readonly column: number;
  readonly row: number;
}

/**
 * What a mouse report is: a wheel notch (buttons 64 up, 65 down, with any modifier bits), 'other'
 * for a click, a drag or a release (tole leaves those alone), or null when `input` is no mouse report.
 */
export function mouseReport(input: string): WheelNotch | 'other' | null {
  const found = MOUSE_REPORT.exec(input);
  if (!found) return null;
  const button = Number(found[1]);
  // Bits 2-4 are Shift, Alt, Ctrl; 64 marks the wheel, its low bits which way.
  const base = button & ~0b11100;
  if (base !== 64 && base !== 65) return 'other';
  return { direction: base === 64 ? -1 : 1, column: Number(found[2]), row: Number(found[3]) };
}

/** The pane at a 1-based cell of the screen, as Panes lays them out; null below the panes. */
export function paneAt(layout: ScreenLayout, column: number, row: number): PaneId | null {
  if (row < 1 || row > layout.panesHeight) return null;
  if (layout.narrow) return layout.single;
  let left = 0;
  for (const [id, rect] of [
    ['tree', layout.tree],
    ['transcript', layout.transcript],
  ] as const) {
    if (!rect) continue;
    if (column <= left + rect.width) return id;
    left += rect.width;
  }
  if (layout.usage && row <= layout.usage.height) return 'usage';
  return layout.registers ? 'registers' : layout.usage ? 'usage' : null;
}
