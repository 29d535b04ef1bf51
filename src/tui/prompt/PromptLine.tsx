import { Box, Text } from 'ink';
import { cellWidth, truncate } from '../text/cell-width';
import { CursorText } from './CursorText';
import { PROMPT_MARK, type PromptLayout } from './prompt-layout';
import { useTheme } from '../style/use-theme';

interface PromptLineProps {
  readonly layout: PromptLayout;
  readonly focused: boolean;
  readonly placeholder: string;
  readonly width: number;
}

/** Steering on its way into the running turn, queued prompts, then the prompt itself (it grows to a few rows as it is typed). */
export function PromptLine({ layout, focused, placeholder, width }: PromptLineProps) {
  const theme = useTheme();
  const empty = layout.rows.length === 1 && layout.rows[0]!.text === '';
  return (
    <Box flexDirection="column" width={width} height={layout.height} flexShrink={0}>
      {layout.steering !== null ? (
        <Text wrap="truncate-end">
          <Text {...theme.style('accent')}>{'  ↳ steering (next model call): '}</Text>
          <Text {...theme.style('text')}>{truncate(layout.steering, Math.max(0, width - 34))}</Text>
        </Text>
      ) : null}
      {layout.queue.map((prompt, i) => (
        <Text key={`q${i}`} wrap="truncate-end">
          <Text {...theme.style('faint')}>{`  ⧗ queued ${i + 1}: `}</Text>
          <Text {...theme.style('muted')}>{truncate(prompt, Math.max(0, width - 16))}</Text>
        </Text>
      ))}
      {layout.moreQueued > 0 ? (
        <Text {...theme.style('faint')}>{`  ⧗ and ${layout.moreQueued} more queued`}</Text>
      ) : null}
      {layout.editing !== null ? (
        <Text wrap="truncate-end" {...theme.style('accent')}>
          {truncate(`  ✎ editing ${layout.editing}: ⏎ sends it as a new branch beside it`, Math.max(0, width))}
        </Text>
      ) : null}
      {layout.rows.map((row, i) => (
        <Text key={`r${i}`} wrap="truncate-end">
          <Text {...theme.style(focused ? 'accentBold' : 'muted')}>
            {i === 0 ? PROMPT_MARK : ' '.repeat(cellWidth(PROMPT_MARK))}
          </Text>
          <CursorText text={row.text} cursorColumn={row.cursorColumn} focused={focused} />
          {empty && i === 0 ? (
            <Text {...theme.style('faint')}>{truncate(placeholder, Math.max(0, width - 4))}</Text>
          ) : null}
        </Text>
      ))}
    </Box>
  );
}
