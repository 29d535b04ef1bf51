import type { MachineStateName } from '../../core/machine/machine';
import { callEstimate, withEstimate, type ContextFill } from '../usage/live-cost';
import { useLiveNow } from '../screen/live-turn-scope';
import { statusPhase } from './status-phase';
import { statusUsage } from '../usage/status-usage';
import { spinnerStep, StatusBar, type StatusBarProps } from './StatusBar';
import type { TurnAgent } from '../screen/turn-controller';
import type { UsageSummary } from '../usage/usage-summary';

/** The session's cost as the status bar carries it on a screen too narrow for the usage pane. */
interface StatusCostInput {
  readonly agent: TurnAgent;
  readonly summary: UsageSummary;
  readonly requestTokens: number | null;
  readonly fill: ContextFill | null;
}

interface LiveStatusBarProps extends Omit<StatusBarProps, 'pc' | 'running' | 'queued' | 'usage' | 'spin'> {
  /** The machine's state (the live turn says what it is doing in it). */
  readonly machine: MachineStateName;
  /** On a narrow screen, the cost to carry; else null. */
  readonly cost: StatusCostInput | null;
}

/**
 * The status bar as the live turn moves it: its state (Streaming, Retrying), its spinner, turned
 * by the streamed frames as they come, and on a narrow screen the live cost. It reads the live
 * turn itself (`useLiveNow`); the bar under it is drawn again only when what it shows moved.
 */
export function LiveStatusBar({ machine, cost, ...rest }: LiveStatusBarProps) {
  const { live } = useLiveNow();
  const running = live.phase !== 'idle';
  const estimate =
    cost === null ? null : callEstimate(live, cost.requestTokens, cost.agent, cost.summary.cachedPrefixTokens);
  const usage =
    cost === null
      ? null
      : statusUsage({ estimate, fill: cost.fill, session: withEstimate(cost.summary.session, estimate) });
  return (
    <StatusBar
      {...rest}
      pc={statusPhase(machine, live)}
      running={running}
      queued={live.queue.length}
      usage={usage}
      spin={running ? spinnerStep() : 0}
    />
  );
}
