import { Box } from 'ink';
import { useState } from 'react';
import { visibleControls } from '../../core/terminal-text';
import { PaneFrame } from '../panes/PaneFrame';
import { StyledLine } from '../style/StyledLine';
import { seg } from '../style/styled-line';
import { type TrustSummary, trustLines } from './trust-lines';
import { useKeyboard } from '../input/use-keyboard';
import { type TerminalSize, useTerminalSize } from '../screen/use-terminal-size';

export type TrustAnswer = 'trust' | 'not-now' | 'quit';

interface TrustPromptProps {
  readonly summary: TrustSummary;
  readonly size?: TerminalSize;
  readonly onAnswer: (answer: TrustAnswer) => void;
}

/**
 * Asked once per folder (and what it holds) before a session opens: `t` trusts, `n` or Esc does
 * not. What does not fit scrolls (↑ ↓ PgUp PgDn), and `t` counts only once every line has been
 * on screen: nothing the folder would run can sit unseen below the fold.
 */
export function TrustPrompt({ summary, size, onAnswer }: TrustPromptProps) {
  const terminal = useTerminalSize();
  const { columns, rows } = size ?? terminal;
  const width = Math.max(20, columns);
  const lines = trustLines(summary, width - 4);
  // Room inside the frame, one row kept for the "more below" line when it is needed.
  const room = Math.max(1, rows - 3);
  const fits = lines.length <= room;
  const page = fits ? lines.length : Math.max(1, room - 1);
  const last = Math.max(0, lines.length - page);
  const [top, setTop] = useState(0);
  const [seenAll, setSeenAll] = useState(fits);
  const scrollTo = (next: number): void => {
    const clamped = Math.min(last, Math.max(0, next));
    setTop(clamped);
    if (clamped >= last) setSeenAll(true);
  };
  useKeyboard((input, key) => {
    if (key.ctrl && input === 'c') onAnswer('quit');
    else if (input === 't' && summary.refused === undefined && (seenAll || fits)) onAnswer('trust');
    else if (input === 'n' || key.escape) onAnswer('not-now');
    else if (key.downArrow || input === 'j') scrollTo(top + 1);
    else if (key.upArrow || input === 'k') scrollTo(top - 1);
    else if (key.pageDown || input === ' ') scrollTo(top + page);
    else if (key.pageUp) scrollTo(top - page);
  });
  const shown = lines.slice(top, top + page);
  const below = lines.length - (top + page);
  if (!fits)
    shown.push(
      below > 0
        ? [seg(`↓ ${below} more line${below === 1 ? '' : 's'} (↓ PgDn): read them all before t trusts`, 'warn')]
        : [seg('↑ PgUp scrolls back', 'faint')],
    );
  return (
    <PaneFrame
      title={`trust ${visibleControls(summary.folder)}?`}
      width={width}
      height={Math.min(rows - 1, shown.length + 2)}
      focused
      tone="warn"
    >
      <Box flexDirection="column">
        {shown.map((line, i) => (
          <StyledLine key={top + i} line={line} />
        ))}
      </Box>
    </PaneFrame>
  );
}
