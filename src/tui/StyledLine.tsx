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

/** One pre-cut screen line. Lines are immutable, so an unchanged line is not re-rendered. */
export const StyledLine = memo(function StyledLine({ line, base }: StyledLineProps) {
  const theme = useTheme();
  const baseStyle = base ? theme.style(base) : {};
  if (line.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate-end" {...baseStyle}>
      {line.map((segment, i) => (
        <Text key={i} {...(segment.style ? theme.style(segment.style) : {})}>
          {segment.text}
        </Text>
      ))}
    </Text>
  );
});
