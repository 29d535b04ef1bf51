import { Box } from 'ink';
import { PaneFrame } from './PaneFrame';
import { StyledLine } from './StyledLine';
import { type TrustSummary, trustLines } from './trust-lines';
import { useKeyboard } from './use-keyboard';
import { type TerminalSize, useTerminalSize } from './use-terminal-size';

export type TrustAnswer = 'trust' | 'not-now' | 'quit';

export interface TrustPromptProps {
  readonly summary: TrustSummary;
  readonly size?: TerminalSize;
  readonly onAnswer: (answer: TrustAnswer) => void;
}

/** Asked once per folder (and config) before a session opens: `t` trusts, `n` or Esc does not. */
export function TrustPrompt({ summary, size, onAnswer }: TrustPromptProps) {
  const terminal = useTerminalSize();
  const { columns, rows } = size ?? terminal;
  const width = Math.max(20, columns);
  const lines = trustLines(summary, width - 4).slice(0, Math.max(1, rows - 3));
  useKeyboard((input, key) => {
    if (input === 't') onAnswer('trust');
    else if (input === 'n' || key.escape) onAnswer('not-now');
    else if (key.ctrl && input === 'c') onAnswer('quit');
  });
  return (
    <PaneFrame
      title={`trust ${summary.folder}?`}
      width={width}
      height={Math.min(rows - 1, lines.length + 2)}
      focused
      tone="warn"
    >
      <Box flexDirection="column">
        {lines.map((line, i) => (
          <StyledLine key={i} line={line} />
        ))}
      </Box>
    </PaneFrame>
  );
}
