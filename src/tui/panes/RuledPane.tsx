import { Box, Text } from 'ink';
import { memo, type ReactNode } from 'react';
import { useTheme } from '../style/use-theme';
import { titleRule } from './PaneFrame';

/**
 * Where a pane of the screen sits, which decides how its rules meet its neighbours':
 * - `screen`: at the screen's left edge (no rule on its left);
 * - `beside`: right of another pane, its title rule on the screen's top row (`┬` joins them);
 * - `below`: under another pane of the same column, right of a third one (`├` joins them).
 */
export type PaneEdge = 'screen' | 'beside' | 'below';

interface RuledPaneProps {
  readonly title: string;
  /** Right-hand note in the title rule (a count, a scroll position). */
  readonly note?: string;
  readonly width: number;
  readonly height: number;
  readonly focused: boolean;
  readonly edge: PaneEdge;
  readonly children: ReactNode;
}

/**
 * Inner size of a pane of the screen: its title rule takes the top line; a column on its left
 * holds the rule it shares with the pane beside it (blank at the screen's edge), and a column of
 * padding each side keeps its text off the rules.
 */
export function paneInnerSize(width: number, height: number): { width: number; height: number } {
  return { width: Math.max(1, width - 3), height: Math.max(0, height - 1) };
}

const LEAD: Record<PaneEdge, string> = { screen: '─', beside: '┬', below: '├' };

/**
 * A pane of the screen: its title in a rule along its top, and one rule on its left shared with
 * the pane there. Panes side by side draw one rule between them, not two borders, and none below
 * (the prompt's row is under them): a first screen of fewer cells. The focused pane's rules and
 * title are drawn in the focus colour. Nothing inside can draw outside it.
 */
/**
 * The pane's title rule, drawn again only when what it shows changes: a streamed frame draws the
 * transcript's lines and the usage pane's live row again, and without this the rule's six texts
 * in each of those panes were rendered, committed and handed to Ink anew on every frame.
 */
const TitleRule = memo(function TitleRule({
  title,
  note,
  width,
  focused,
  edge,
}: Omit<RuledPaneProps, 'height' | 'children'>) {
  const theme = useTheme();
  const rule = theme.style(focused ? 'borderFocused' : 'border');
  const { shownTitle, shownNote, fill } = titleRule(title, note, width);
  return (
    <Text wrap="truncate-end">
      <Text {...rule}>{LEAD[edge]} </Text>
      <Text {...theme.style(focused ? 'accentBold' : 'muted')}>{shownTitle}</Text>
      <Text {...rule}> {'─'.repeat(fill)}</Text>
      {shownNote ? <Text {...theme.style('faint')}> {shownNote} </Text> : null}
      <Text {...rule}>─</Text>
    </Text>
  );
});

export function RuledPane({ title, note, width, height, focused, edge, children }: RuledPaneProps) {
  const theme = useTheme();
  const rule = theme.style(focused ? 'borderFocused' : 'border');
  return (
    <Box flexDirection="column" width={width} height={height} flexShrink={0}>
      <TitleRule title={title} {...(note ? { note } : {})} width={width} focused={focused} edge={edge} />
      <Box
        // A new layout node when the edge changes: Ink sets a border side only while it is on and
        // never takes it back, so a pane moved from beside another to the screen's edge (a resize
        // to a narrow screen) kept a border column it no longer draws, its text one column right
        // and one narrower than laid out, and the transcript's one text node was cut as a whole.
        key={edge}
        flexDirection="column"
        width={width}
        height={Math.max(0, height - 1)}
        borderStyle="single"
        borderTop={false}
        borderRight={false}
        borderBottom={false}
        borderLeft={edge !== 'screen'}
        borderColor={rule.color}
        borderDimColor={false}
        paddingLeft={edge === 'screen' ? 2 : 1}
        paddingRight={1}
        overflow="hidden"
      >
        {children}
      </Box>
    </Box>
  );
}
