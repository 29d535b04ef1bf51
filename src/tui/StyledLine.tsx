import { Text } from 'ink';
import { memo } from 'react';
import type { Line } from './styled-line';
import type { StyleName } from './styles';
import { useTheme } from './use-theme';

export interface StyledLineProps {
  readonly line: Line;
  /** A style laid under every segment (the selected row's background). */
  readonly base?: StyleName;
}

/** One pre-cut screen line, painted into a single text node. */
export const StyledLine = memo(function StyledLine({ line, base }: StyledLineProps) {
  const theme = useTheme();
  if (line.length === 0) return <Text> </Text>;
  let text = '';
  for (const segment of line) text += theme.paint(segment.text, segment.style, base);
  return <Text wrap="truncate-end">{text}</Text>;
});
