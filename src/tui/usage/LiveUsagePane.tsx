import { memo, useMemo } from 'react';
import { formatMs } from '../text/format';
import type { ContextFill } from './live-cost';
import { retryRemainingMs } from '../transcript/live-lines';
import { LinesPane } from '../panes/LinesPane';
import { useLiveNow } from '../screen/live-turn-scope';
import { paneInnerSize, type PaneEdge } from '../panes/RuledPane';
import type { ActiveTool, TurnAgent } from '../screen/turn-controller';
import { useMemoWindow } from '../panes/pane-window';
import { useLiveCost } from './use-live-cost';
import type { KnownWindow } from './known-window';
import { usageLines } from './usage-lines';
import type { UsageSummary } from './usage-summary';

/** What the turn is doing, for the usage pane's live row; null when no turn runs. */
export function turnActivity(
  turn: {
    readonly phase: 'idle' | 'resuming' | 'running';
    readonly activeTools: readonly ActiveTool[];
    readonly task: string | null;
  },
  streaming: boolean,
  awaitingApproval: boolean,
): string | null {
  if (turn.phase === 'idle') return null;
  if (awaitingApproval) return 'awaiting approval';
  const [first, ...others] = turn.activeTools;
  if (first) return others.length === 0 ? `running ${first.tool}` : `running ${turn.activeTools.length} tools`;
  if (turn.task) return turn.task;
  if (streaming) return 'streaming';
  return turn.phase === 'resuming' ? 'resuming' : 'waiting for the model';
}

/** What the usage pane shows besides the live turn: the same from one streamed frame to the next. */
export interface UsageInput {
  readonly agent: TurnAgent;
  readonly summary: UsageSummary;
  readonly requestTokens: number | null;
  readonly fill: ContextFill | null;
  readonly knownWindow: KnownWindow;
  /** The session's budget in US dollars, shown under the session row; null when none is set. */
  readonly budgetUsd: number | null;
  readonly awaitingApproval: boolean;
  /** The width its lines are laid out at (the side column's inner width). */
  readonly lineWidth: number;
  readonly offset: number;
}

interface LiveUsagePaneProps extends UsageInput {
  readonly width: number;
  readonly height: number;
  readonly focused: boolean;
  readonly edge: PaneEdge;
}

/**
 * The usage pane: its turn row and estimated figures move with the streamed reply, so it reads
 * the live turn itself (`useLiveNow`); its lines are laid out again, and the pane drawn, only
 * when a figure it shows moved.
 */
export const LiveUsagePane = memo(function LiveUsagePane(props: LiveUsagePaneProps) {
  const { live, nowMs } = useLiveNow();
  const { agent, summary, requestTokens, fill, knownWindow, budgetUsd, awaitingApproval, lineWidth } = props;
  const cost = useLiveCost(agent, summary, live, requestTokens, fill);
  const doing = turnActivity(live, live.text !== '' || live.reasoning !== '', awaitingApproval);
  const elapsedMs = live.startedAtMs === null ? 0 : nowMs - live.startedAtMs;
  const remainingMs = live.retry ? retryRemainingMs(live, nowMs) : null;
  const elapsed = formatMs(elapsedMs);
  // Laid out again only when a figure it shows moved: streamed text moves it once a frame at most.
  const lines = useMemo(
    () =>
      usageLines(
        summary,
        {
          activity: doing,
          estimate: cost.estimate,
          fill: cost.fill,
          elapsedMs,
          retry: live.retry ? { outcome: live.retry.outcome, remainingMs } : null,
        },
        lineWidth,
        knownWindow,
        budgetUsd,
      ),
    [summary, doing, cost, elapsed, live.retry, remainingMs, lineWidth, knownWindow, budgetUsd],
  );
  // The same window of the same lines is the same content: the pane is not drawn again for nothing.
  const content = useMemoWindow('usage')(lines, props.offset, paneInnerSize(props.width, props.height).height);
  return (
    <LinesPane
      title={content.title}
      {...(content.note ? { note: content.note } : {})}
      lines={content.lines}
      width={props.width}
      height={props.height}
      focused={props.focused}
      edge={props.edge}
    />
  );
});
