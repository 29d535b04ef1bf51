import { Box, type DOMElement, Text } from 'ink';
import { memo, type Ref } from 'react';
import { paneInnerSize, RuledPane, type PaneEdge } from './RuledPane';
import { StyledLine } from '../style/StyledLine';
import { paintedLines } from '../style/painted-lines';
import type { Line } from '../style/styled-line';
import widestLine from '../text/text-width';
import { useTheme } from '../style/use-theme';
import type { ThemeView } from '../style/theme-context';

interface LinesPaneProps {
  readonly title: string;
  readonly note?: string;
  /** The lines on screen, already windowed and cut to the pane's inner width. */
  readonly lines: readonly Line[];
  /** A key per line that moves with it as the pane scrolls (else lines are keyed by place). */
  readonly keys?: readonly string[];
  readonly width: number;
  readonly height: number;
  readonly focused: boolean;
  /** Where it sits among the panes (at the screen's left edge when not given). */
  readonly edge?: PaneEdge;
  /** The box holding its lines (a streamed frame drawn without React writes its text: streamed-bypass.ts). */
  readonly boxRef?: Ref<DOMElement>;
}

/**
 * The lines as the pane's one text node holds them, or null when they go a node per line (none,
 * or one wider than `innerWidth`): what LinesPane draws, and what a streamed frame drawn without
 * React writes in its place.
 */
export function wholeText(theme: ThemeView, lines: readonly Line[], innerWidth: number): string | null {
  if (lines.length === 0) return null;
  const text = paintedLines(theme, lines);
  return widestLine(text) <= innerWidth ? text : null;
}

/**
 * A pane that shows prepared lines: the transcript, usage and registers panes. Memoized: a pane
 * whose lines object, title and size are the same is not drawn again (a streamed token redraws
 * the transcript, not the registers).
 *
 * Its lines go to Ink as one text node, one line of it per screen line. Ink draws that exactly as
 * a text node per line (lines no wider than the pane are neither wrapped nor cut), for a fraction
 * of the work: a streamed frame that scrolls the transcript by a line changes one node's text,
 * where a node per line made React move every line, Ink make and free a layout node, Yoga lay out
 * the whole column again and Ink walk each line's node. A line wider than the pane (which callers
 * do not give) is drawn a node per line, each cut by Ink as before.
 */
export const LinesPane = memo(function LinesPane({
  title,
  note,
  lines,
  keys,
  width,
  height,
  focused,
  edge = 'screen',
  boxRef,
}: LinesPaneProps) {
  const theme = useTheme();
  const text = wholeText(theme, lines, paneInnerSize(width, height).width);
  return (
    <RuledPane title={title} {...(note ? { note } : {})} width={width} height={height} focused={focused} edge={edge}>
      <Box flexDirection="column" {...(boxRef ? { ref: boxRef } : {})}>
        {text !== null ? (
          <Text wrap="truncate-end">{text}</Text>
        ) : (
          lines.map((line, i) => <StyledLine key={keys?.[i] ?? i} line={line} />)
        )}
      </Box>
    </RuledPane>
  );
});
