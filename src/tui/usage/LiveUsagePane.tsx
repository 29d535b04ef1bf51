import type { DOMElement } from 'ink';
import { memo, useMemo, useRef } from 'react';
import { formatMs } from '../text/format';
import type { ContextFill } from './live-cost';
import { retryRemainingMs } from '../transcript/live-lines';
import { LinesPane, wholeText } from '../panes/LinesPane';
import { onlyText } from '../frame/streamed-bypass';
import { useTheme } from '../style/use-theme';
import { useLiveNow } from '../screen/live-turn-scope';
import { paneInnerSize, type PaneEdge } from '../panes/RuledPane';
import type { ActiveTool, LiveTurn, TurnAgent } from '../screen/turn-controller';
import { useMemoWindow, windowed } from '../panes/pane-window';
import { liveCost, useLiveCost, type LiveCost } from './use-live-cost';
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
  const { live, nowMs, vouch } = useLiveNow();
  const { agent, summary, requestTokens, fill, knownWindow, budgetUsd, awaitingApproval, lineWidth } = props;
  const theme = useTheme();
  const box = useRef<DOMElement>(null);
  const cost = useLiveCost(agent, summary, live, requestTokens, fill);
  const doing = turnActivity(live, live.text !== '' || live.reasoning !== '', awaitingApproval);
  const elapsedMs = live.startedAtMs === null ? 0 : nowMs - live.startedAtMs;
  const remainingMs = live.retry ? retryRemainingMs(live, nowMs) : null;
  const elapsed = formatMs(elapsedMs);
  // Laid out again only when a figure it shows moved: streamed text moves it once a frame at most.
  const lines = useMemo(
    () => liveUsageLines(props, live, cost, doing, elapsedMs, remainingMs),
    [summary, doing, cost, elapsed, live.retry, remainingMs, lineWidth, knownWindow, budgetUsd],
  );
  const inner = paneInnerSize(props.width, props.height);
  // The same window of the same lines is the same content: the pane is not drawn again for nothing.
  const content = useMemoWindow('usage')(lines, props.offset, inner.height);
  // A streamed frame drawn without React (src/tui/frame/streamed-bypass.ts): the pane's one text
  // node as a render with the later turn would make it, while its title, note and activity stay.
  vouch({
    node: () => onlyText(box.current as Parameters<typeof onlyText>[0]),
    textFor: (turn, at) => {
      const later = turnActivity(turn, turn.text !== '' || turn.reasoning !== '', awaitingApproval);
      if (later !== doing || turn.retry !== live.retry) return null;
      const laterCost = liveCost(agent, summary, turn, requestTokens, fill);
      const laterElapsed = turn.startedAtMs === null ? 0 : at - turn.startedAtMs;
      const laterRemaining = turn.retry ? retryRemainingMs(turn, at) : null;
      const shown = windowed(
        'usage',
        liveUsageLines(props, turn, laterCost, later, laterElapsed, laterRemaining),
        props.offset,
        inner.height,
      );
      if (shown.title !== content.title || shown.note !== content.note) return null;
      return wholeText(theme, shown.lines, inner.width);
    },
  });
  return (
    <LinesPane
      title={content.title}
      {...(content.note ? { note: content.note } : {})}
      lines={content.lines}
      boxRef={box}
      width={props.width}
      height={props.height}
      focused={props.focused}
      edge={props.edge}
    />
  );
});

/** The usage pane's lines for the live turn and its cost, at `elapsedMs` into the turn. */
function liveUsageLines(
  props: UsageInput,
  live: LiveTurn,
  cost: LiveCost,
  doing: string | null,
  elapsedMs: number,
  remainingMs: number | null,
): ReturnType<typeof usageLines> {
  return usageLines(
    props.summary,
    {
      activity: doing,
      estimate: cost.estimate,
      fill: cost.fill,
      elapsedMs,
      retry: live.retry ? { outcome: live.retry.outcome, remainingMs } : null,
    },
    props.lineWidth,
    props.knownWindow,
    props.budgetUsd,
  );
}
