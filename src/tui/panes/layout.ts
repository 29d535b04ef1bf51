import type { PaneId } from '../input/keymap';

/** Below this many columns the side panes leave the screen; Tab brings each one up in turn. */
const NARROW_COLUMNS = 100;

interface Rect {
  readonly width: number;
  readonly height: number;
}

export interface ScreenLayout {
  readonly narrow: boolean;
  /** Lines Ink may draw: one less than the terminal has, so it never scrolls or clears the screen. */
  readonly lines: number;
  readonly panesHeight: number;
  readonly tree: Rect | null;
  readonly transcript: Rect | null;
  readonly usage: Rect | null;
  readonly registers: Rect | null;
  /** The one pane a narrow screen shows. */
  readonly single: PaneId | null;
}

interface LayoutInput {
  readonly columns: number;
  readonly rows: number;
  readonly focus: PaneId;
  readonly promptHeight: number;
  readonly approvalHeight: number;
  readonly flashHeight: number;
  /** Lines the usage pane's content wants (it gets them when the column has room). */
  readonly usageLines: number;
}

const clamp = (n: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, n));

/** Width of the usage and registers column on a wide screen (the whole width on a narrow one). */
export function sidePaneWidth(columns: number): number {
  return columns < NARROW_COLUMNS ? columns : clamp(Math.round(columns * 0.27), 33, 46);
}

/** The tree's width on a wide screen. */
function treePaneWidth(columns: number): number {
  return clamp(Math.round(columns * 0.25), 24, 48);
}

/**
 * The columns (0-based) where the frame writer sets tab stops (`FrameWriter.tabStops`) on a screen
 * `columns` wide, so that a row of a pane is reached with a carriage return, a line feed and a tab
 * or two: the transcript's text, the side column's rule and its text. Not the tree's text (column
 * 2): a stop there is one tab more on the way to every stop right of it, and the transcript's rows
 * are most of the rows a turn draws (a 300-token reply, ~36 of them) while the tree draws one or two;
 * the tree's text is reached with `CR ESC[2C`. Under 100 columns one pane shows, its text from
 * column 2.
 */
export function paneStartColumns(columns: number): number[] {
  if (columns < NARROW_COLUMNS) return [2];
  const side = columns - sidePaneWidth(columns);
  return [treePaneWidth(columns) + 2, side, side + 2];
}

/** Splits the screen: tree | transcript | usage over registers, then flash, approval, prompt, status. */
export function screenLayout(input: LayoutInput): ScreenLayout {
  const lines = Math.max(1, input.rows - 1);
  const panesHeight = Math.max(0, lines - 1 - input.promptHeight - input.approvalHeight - input.flashHeight);
  if (input.columns < NARROW_COLUMNS) {
    const single: PaneId = input.focus === 'input' ? 'transcript' : input.focus;
    const rect = { width: input.columns, height: panesHeight };
    return {
      narrow: true,
      lines,
      panesHeight,
      tree: single === 'tree' ? rect : null,
      transcript: single === 'transcript' ? rect : null,
      usage: single === 'usage' ? rect : null,
      registers: single === 'registers' ? rect : null,
      single,
    };
  }
  const treeWidth = treePaneWidth(input.columns);
  const sideWidth = sidePaneWidth(input.columns);
  const transcriptWidth = input.columns - treeWidth - sideWidth;
  const usageHeight = clamp(input.usageLines + 1, Math.min(4, panesHeight), Math.floor(panesHeight * 0.5));
  return {
    narrow: false,
    lines,
    panesHeight,
    tree: { width: treeWidth, height: panesHeight },
    transcript: { width: transcriptWidth, height: panesHeight },
    usage: { width: sideWidth, height: usageHeight },
    registers: { width: sideWidth, height: panesHeight - usageHeight },
    single: null,
  };
}
