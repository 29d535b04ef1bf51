import { Text } from 'ink';
import { memo } from 'react';
import type { Line } from './styled-line';
import type { StyleName } from './styles';
import { useTheme } from './use-theme';

interface StyledLineProps {
  readonly line: Line;
  /** A style laid under every segment (the selected row's background). */
  readonly base?: StyleName;
}

/** Same segments, same styles: lines made again each frame (the usage pane's, the live reply's) often are. */
function sameLine(a: Line, b: Line): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.text !== b[i]!.text || a[i]!.style !== b[i]!.style) return false;
  return true;
}

/** One pre-cut screen line, painted into a single text node; drawn again only when what it shows changes. */
export const StyledLine = memo(
  function StyledLine({ line, base }: StyledLineProps) {
    const theme = useTheme();
    if (line.length === 0) return <Text> </Text>;
    let text = '';
    for (const segment of line) text += theme.paint(segment.text, segment.style, base);
    return <Text wrap="truncate-end">{text}</Text>;
  },
  (before, after) => before.base === after.base && sameLine(before.line, after.line),
);
