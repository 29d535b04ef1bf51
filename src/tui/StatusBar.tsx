import { Text } from 'ink';
import type { MachineStateName } from '../core/machine/machine';
import { cellWidth, truncate } from './cell-width';
import { useTheme } from './use-theme';
import { useTicker } from './use-ticker';

export interface StatusBarProps {
  readonly pc: MachineStateName;
  readonly seq: number;
  readonly model: string;
  readonly sessionId: string;
  readonly running: boolean;
  readonly readOnly: boolean;
  readonly queued: number;
  readonly hints: readonly { readonly keys: string; readonly hint: string }[];
  readonly width: number;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Machine state, seq, model and session on the left; the focused pane's keys on the right. */
export function StatusBar({ pc, seq, model, sessionId, running, readOnly, queued, hints, width }: StatusBarProps) {
  const theme = useTheme();
  const tick = useTicker(running, 100);
  const mark = running ? SPINNER[tick % SPINNER.length]! : '●';
  const facts = [pc, `seq ${seq}`, model, sessionId];
  if (readOnly) facts.push('read-only');
  if (queued > 0) facts.push(`${queued} queued`);
  const left = ` ${mark} ${facts.join(' · ')}`;
  const shown: { keys: string; hint: string }[] = [];
  let rightWidth = 0;
  for (const h of hints) {
    const w = cellWidth(`${h.keys} ${h.hint}  `);
    if (cellWidth(left) + rightWidth + w + 2 > width) break;
    shown.push(h);
    rightWidth += w;
  }
  const leftShown = truncate(left, Math.max(0, width - rightWidth));
  const gap = Math.max(0, width - cellWidth(leftShown) - rightWidth);
  const status = theme.style('status');
  return (
    <Text wrap="truncate-end">
      <Text {...status}>{leftShown}</Text>
      <Text {...status}>{' '.repeat(gap)}</Text>
      {shown.map(({ keys, hint }) => (
        <Text key={hint}>
          <Text {...theme.style('statusKey')}>{keys}</Text>
          <Text {...status}>{` ${hint}  `}</Text>
        </Text>
      ))}
    </Text>
  );
}
