import { Text } from 'ink';
import { cellWidth, truncate } from './cell-width';
import { useTheme } from './use-theme';
import { useTicker } from './use-ticker';

export interface StatusBarProps {
  /** The machine state, or what the live turn is doing in it (statusPhase). */
  readonly pc: string;
  readonly seq: number;
  readonly model: string;
  readonly sessionId: string;
  readonly running: boolean;
  readonly readOnly: boolean;
  readonly queued: number;
  /** A problem to keep in sight until it is fixed: `no provider`, `key refused`, `server unreachable`. */
  readonly alert?: string | null;
  readonly hints: readonly { readonly keys: string; readonly hint: string }[];
  readonly width: number;
  /**
   * The session's cost and context fill, on a screen too narrow for the usage pane
   * (`~$0.0123 · ctx 41k/128k 32%`); `alert` when the window is nearly full.
   */
  readonly usage?: { readonly text: string; readonly alert: boolean } | null;
}

/** Keys the status bar keeps in sight before it gives room to the session id. */
const MIN_HINTS = 3;

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Machine state, seq, model and session on the left; the focused pane's keys on the right. */
export function StatusBar({
  pc,
  seq,
  model,
  sessionId,
  running,
  readOnly,
  queued,
  alert,
  hints,
  width,
  usage,
}: StatusBarProps) {
  const theme = useTheme();
  const tick = useTicker(running, 100);
  const mark = running ? SPINNER[tick % SPINNER.length]! : '●';
  // With the cost carried (a narrow screen), the seq gives its room to the keys: the registers pane has it.
  const facts = usage ? [model] : [`seq ${seq}`, model];
  if (readOnly) facts.push('read-only');
  if (queued > 0) facts.push(`${queued} queued`);
  // The cost comes right after the state: on a narrow screen the end of this line is what gets cut.
  const head = ` ${mark} ${pc} · `;
  const costPart = usage ? `${usage.text} · ` : '';
  const lead = `${head}${costPart}${facts.join(' · ')}`;
  const flag = alert ? ` ✗ ${alert} ` : '';
  // The first few keys come before the session id: on a narrow screen the id goes (whole: a cut id is no use).
  const id = `${flag ? ' ' : ' · '}${sessionId}`;
  const base = cellWidth(lead) + cellWidth(flag);
  const fitting = (used: number): { keys: string; hint: string }[] => {
    const out: { keys: string; hint: string }[] = [];
    let right = 0;
    for (const h of hints) {
      const w = cellWidth(`${h.keys} ${h.hint}  `);
      if (used + right + w + 2 > width) break;
      out.push(h);
      right += w;
    }
    return out;
  };
  const besideId = fitting(base + cellWidth(id));
  const withId = besideId.length >= Math.min(MIN_HINTS, hints.length);
  const shown = withId ? besideId : fitting(base);
  const rightWidth = shown.reduce((sum, h) => sum + cellWidth(`${h.keys} ${h.hint}  `), 0);
  const leadShown = truncate(lead, Math.max(0, width - rightWidth));
  const flagShown = truncate(flag, Math.max(0, width - rightWidth - cellWidth(leadShown)));
  const idShown = withId ? id : '';
  const gap = Math.max(0, width - cellWidth(leadShown) - cellWidth(flagShown) - cellWidth(idShown) - rightWidth);
  const status = theme.style('status');
  return (
    <Text wrap="truncate-end">
      {usage?.alert && leadShown.startsWith(head + costPart) ? (
        <>
          <Text {...status}>{head}</Text>
          <Text {...theme.style('statusAlert')}>{usage.text}</Text>
          <Text {...status}>{leadShown.slice(head.length + usage.text.length)}</Text>
        </>
      ) : (
        <Text {...status}>{leadShown}</Text>
      )}
      {flagShown ? <Text {...theme.style('statusAlert')}>{flagShown}</Text> : null}
      <Text {...status}>{idShown}</Text>
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
