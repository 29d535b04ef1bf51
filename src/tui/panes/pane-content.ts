import type { Line } from '../style/styled-line';

/** What a pane of lines shows: its title, an optional note, its lines and their keys. */
export interface PaneContent {
  readonly title: string;
  readonly note?: string;
  readonly lines: readonly Line[];
  /** A key per line that moves with it when the pane scrolls; by place when absent. */
  readonly keys?: readonly string[];
}
