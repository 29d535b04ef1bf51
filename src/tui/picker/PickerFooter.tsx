import { Box, Text } from 'ink';
import { cellWidth, truncate } from '../text/cell-width';
import type { PickerSession } from './picker-rows';
import { useTheme } from '../style/use-theme';

interface PickerFooterProps {
  readonly selected: PickerSession | undefined;
  readonly hints: readonly { readonly keys: string; readonly hint: string }[];
  readonly width: number;
}

/** What a session's file says when it cannot be opened, without its path (the line shows it). */
function problemText(session: PickerSession): string {
  const problem = session.problem ?? '';
  return problem.startsWith(`${session.path}: `) ? problem.slice(session.path.length + 2) : problem;
}

/** Under the list: the highlighted session's id and directory (or why it cannot be opened), then the keys. */
export function PickerFooter({ selected, hints, width }: PickerFooterProps) {
  const theme = useTheme();
  const status = theme.style('status');
  const shown: { keys: string; hint: string }[] = [];
  let used = 1;
  for (const h of hints) {
    const w = cellWidth(`${h.keys} ${h.hint}  `);
    if (used + w > width) break;
    shown.push(h);
    used += w;
  }
  const broken = selected?.problem
    ? `cannot be opened (tole check ${selected.path} says more): ${problemText(selected)}`
    : '';
  const detail = selected ? ` ${selected.id} · ${selected.cwd}` : ' ';
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      <Text wrap="truncate-end" {...theme.style(broken ? 'error' : 'faint')}>
        {truncate(broken ? ` ${broken}` : detail, width)}
      </Text>
      <Text wrap="truncate-end">
        <Text {...status}> </Text>
        {shown.map(({ keys, hint }) => (
          <Text key={hint}>
            <Text {...theme.style('statusKey')}>{keys}</Text>
            <Text {...status}>{` ${hint}  `}</Text>
          </Text>
        ))}
        <Text {...status}>{' '.repeat(Math.max(0, width - used))}</Text>
      </Text>
    </Box>
  );
}
