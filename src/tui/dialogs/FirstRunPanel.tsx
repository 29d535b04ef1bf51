import { Box } from 'ink';
import { firstRunLines } from './first-run-lines';
import type { Binding } from '../input/keymap';
import { PaneFrame, innerSize } from '../panes/PaneFrame';
import type { ProviderSetup } from './provider-setup';
import { StyledLine } from '../style/StyledLine';
import type { FirstRunState } from './use-first-run';

interface FirstRunPanelProps {
  readonly setup: ProviderSetup;
  readonly state: FirstRunState;
  readonly keymap: readonly Binding[];
  readonly width: number;
  readonly height: number;
}

/** In place of the panes while no provider is set (or on /connect): what tole looked for, and the local servers it found. */
export function FirstRunPanel({ setup, state, keymap, width, height }: FirstRunPanelProps) {
  const inner = innerSize(width, height);
  const lines = firstRunLines(setup, state, keymap, inner.width);
  return (
    <PaneFrame
      title={state.missing ? 'no model provider yet' : 'local model servers'}
      width={width}
      height={height}
      focused
    >
      <Box flexDirection="column">
        {lines.slice(0, inner.height).map((line, i) => (
          <StyledLine key={i} line={line} />
        ))}
      </Box>
    </PaneFrame>
  );
}
