import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { cellWidth, truncate } from '../text/cell-width';
import type { StyleName } from '../style/styles';
import { useTheme } from '../style/use-theme';

interface PaneFrameProps {
  readonly title: string;
  /** Right-hand note in the top border (a count, a scroll position). */
  readonly note?: string;
  readonly width: number;
  readonly height: number;
  readonly focused: boolean;
  /** Overrides the border's role (the approval prompt of a Destructive call is drawn in danger). */
  readonly tone?: StyleName;
  readonly children: ReactNode;
}

/** Inner size of a pane: the border takes a line top and bottom and a column each side, plus a column of padding each side. */
export function innerSize(width: number, height: number): { width: number; height: number } {
  return { width: Math.max(1, width - 4), height: Math.max(0, height - 2) };
}

/**
 * What a pane's top line holds at `width` columns: its title cut to fit, its note (left out when it
 * does not fit whole: a cut count would mislead), and the run of rule between them. A corner or a
 * joining rule and a space take two columns before the title, a space and one rule the two after
 * the rest.
 */
export function titleRule(
  title: string,
  note: string | undefined,
  width: number,
): { shownTitle: string; shownNote: string; fill: number } {
  const room = Math.max(0, width - 4);
  const shownTitle = truncate(title, room);
  const shownNote = note && cellWidth(note) <= room - cellWidth(shownTitle) - 3 ? note : '';
  const fill = Math.max(0, width - 2 - (cellWidth(shownTitle) + 2) - (shownNote ? cellWidth(shownNote) + 2 : 0));
  return { shownTitle, shownNote, fill };
}

/** A bordered pane with its title in the top border; nothing inside can draw outside it. */
export function PaneFrame({ title, note, width, height, focused, tone, children }: PaneFrameProps) {
  const theme = useTheme();
  const border = theme.style(tone ?? (focused ? 'borderFocused' : 'border'));
  const { shownTitle, shownNote, fill } = titleRule(title, note, width);
  return (
    <Box flexDirection="column" width={width} height={height} flexShrink={0}>
      <Text wrap="truncate-end">
        <Text {...border}>╭</Text>
        <Text {...border}> </Text>
        <Text {...theme.style(tone ?? (focused ? 'accentBold' : 'muted'))}>{shownTitle}</Text>
        <Text {...border}> {'─'.repeat(fill)}</Text>
        {shownNote ? <Text {...theme.style('faint')}> {shownNote} </Text> : null}
        <Text {...border}>╮</Text>
      </Text>
      <Box
        flexDirection="column"
        width={width}
        height={Math.max(0, height - 1)}
        borderStyle="round"
        borderTop={false}
        borderColor={border.color}
        borderDimColor={false}
        paddingX={1}
        overflow="hidden"
      >
        {children}
      </Box>
    </Box>
  );
}
