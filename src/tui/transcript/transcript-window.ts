import type { AnyEntry } from '../../core/tree/entry-types';
import { entryLines } from './entry-lines';
import { isRepeatedHookNotice } from './folded-notices';
import type { Line } from '../style/styled-line';

/**
 * Where the transcript is scrolled. `follow` keeps the newest line at the bottom; `at` pins a
 * line of an entry to the top of the pane, so the view stays still while a reply streams in
 * below it. Only the lines on screen (and those scrolled over) are laid out: a path of 100,000
 * entries costs what the screen shows, not what the file holds.
 */
export type ScrollAnchor =
  | { readonly kind: 'follow' }
  | { readonly kind: 'at'; readonly entryId: string; readonly index: number; readonly line: number };

export const FOLLOW: ScrollAnchor = { kind: 'follow' };

/** Entries never change: their lines are laid out once per width. */
export class LineCache {
  private width = -1;
  private readonly lines = new Map<string, Line[]>();
  /** Bounded: a long scroll through a huge session does not keep every layout. */
  static readonly MAX_ENTRIES = 5000;

  get(entry: AnyEntry, width: number): Line[] {
    if (width !== this.width) {
      this.lines.clear();
      this.width = width;
    }
    let lines = this.lines.get(entry.id);
    if (!lines) {
      if (this.lines.size >= LineCache.MAX_ENTRIES) this.lines.clear();
      lines = entryLines(entry, width);
      this.lines.set(entry.id, lines);
    }
    return lines;
  }
}

const NO_LINES: readonly Line[] = [];

/** The path's entries, then the live tail (streamed text not committed yet) as one last block. */
interface Blocks {
  readonly count: number;
  lines(index: number): readonly Line[];
  id(index: number): string;
}

function blocksOf(path: readonly AnyEntry[], tail: readonly Line[], cache: LineCache, width: number): Blocks {
  return {
    count: path.length + 1,
    // A passing hook's notice said once already this turn takes no line.
    lines: (index) =>
      index < path.length ? (isRepeatedHookNotice(path, index) ? NO_LINES : cache.get(path[index]!, width)) : tail,
    id: (index) => (index < path.length ? path[index]!.id : ''),
  };
}

export interface TranscriptWindow {
  readonly lines: readonly Line[];
  /**
   * A key per line that stays with the line while it scrolls (its entry's id and its place in
   * the entry; the live tail's lines by place): the screen keeps a line's drawing as it moves.
   */
  readonly keys: readonly string[];
  /** Where the top line on screen sits: what scrolling moves from. */
  readonly top: { readonly index: number; readonly line: number };
  readonly following: boolean;
  readonly atTop: boolean;
}

/** The key of line `line` of block `index` (the live tail's id is ''). */
function lineKey(blocks: Blocks, index: number, line: number): string {
  return `${blocks.id(index)}:${line}`;
}

function bottomWindow(blocks: Blocks, height: number): TranscriptWindow {
  const collected: Line[] = [];
  const keys: string[] = [];
  let index = blocks.count - 1;
  let line = 0;
  for (; index >= 0; index--) {
    const lines = blocks.lines(index);
    for (line = lines.length - 1; line >= 0 && collected.length < height; line--) {
      collected.push(lines[line]!);
      keys.push(lineKey(blocks, index, line));
    }
    if (collected.length >= height) break;
  }
  const top = index < 0 ? { index: 0, line: 0 } : { index, line: line + 1 };
  const atTop = index < 0 || (top.line === 0 && isEmptyBefore(blocks, top.index));
  return { lines: collected.reverse(), keys: keys.reverse(), top, following: true, atTop };
}

function isEmptyBefore(blocks: Blocks, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) if (blocks.lines(i).length > 0) return false;
  return true;
}

/** The lines that fill a pane of `height`, scrolled as `anchor` says. */
export function transcriptWindow(
  path: readonly AnyEntry[],
  tail: readonly Line[],
  cache: LineCache,
  width: number,
  height: number,
  anchor: ScrollAnchor,
): TranscriptWindow {
  const blocks = blocksOf(path, tail, cache, width);
  if (height <= 0) return { lines: [], keys: [], top: { index: 0, line: 0 }, following: true, atTop: true };
  if (anchor.kind === 'follow' || blocks.id(anchor.index) !== anchor.entryId) return bottomWindow(blocks, height);
  const collected: Line[] = [];
  const keys: string[] = [];
  for (
    let index = anchor.index, line = anchor.line;
    index < blocks.count && collected.length < height;
    index++, line = 0
  ) {
    const lines = blocks.lines(index);
    for (; line < lines.length && collected.length < height; line++) {
      collected.push(lines[line]!);
      keys.push(lineKey(blocks, index, line));
    }
  }
  // Scrolled down to the end: follow new output again.
  if (collected.length < height) return bottomWindow(blocks, height);
  const atTop = anchor.line === 0 && isEmptyBefore(blocks, anchor.index);
  return { lines: collected, keys, top: { index: anchor.index, line: anchor.line }, following: false, atTop };
}

/** The anchor after scrolling `delta` lines (negative: up) from a window. */
export function scrollTranscript(
  window: TranscriptWindow,
  delta: number,
  path: readonly AnyEntry[],
  tail: readonly Line[],
  cache: LineCache,
  width: number,
  height: number,
): ScrollAnchor {
  const blocks = blocksOf(path, tail, cache, width);
  let { index, line } = window.top;
  line += delta;
  while (line < 0 && index > 0) {
    index -= 1;
    line += blocks.lines(index).length;
  }
  if (line < 0) line = 0;
  while (index < blocks.count - 1 && line >= blocks.lines(index).length) {
    line -= blocks.lines(index).length;
    index += 1;
  }
  if (index >= path.length || !fillsFrom(blocks, index, line, height)) return FOLLOW;
  return { kind: 'at', entryId: blocks.id(index), index, line };
}

/** True when at least `height` lines follow (index, line): else that position is the bottom. */
function fillsFrom(blocks: Blocks, index: number, line: number, height: number): boolean {
  let count = blocks.lines(index).length - line;
  for (let i = index + 1; i < blocks.count && count < height; i++) count += blocks.lines(i).length;
  return count >= height;
}

export function scrollToTop(path: readonly AnyEntry[]): ScrollAnchor {
  return path.length === 0 ? FOLLOW : { kind: 'at', entryId: path[0]!.id, index: 0, line: 0 };
}
