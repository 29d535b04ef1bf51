import { useMemo } from 'react';
import type { SessionStore } from '../../core/storage/session-store';
import { callEstimate, streamedTokens } from '../usage/live-cost';
import { useLiveNow } from '../screen/live-turn-scope';
import type { TurnAgent } from '../screen/turn-controller';
import type { SessionView } from '../screen/use-session-view';
import { costLines, type CostInput } from '../usage/cost-lines';
import { innerSize } from '../panes/PaneFrame';
import { ScrolledLinesOverlay } from './ScrolledLinesOverlay';

interface CostOverlayProps {
  readonly input: CostInput;
  readonly width: number;
  readonly height: number;
  readonly offset: number;
}

/** `/cost`: what the session's calls cost, split every way the usage pane has no room for; Esc or q closes. */
export function CostOverlay({ input, width, height, offset }: CostOverlayProps) {
  const inner = innerSize(width, height);
  const lines = useMemo(() => costLines(input, inner.width - 1), [input, inner.width]);
  return (
    <ScrolledLinesOverlay title="cost · Esc or q closes" lines={lines} width={width} height={height} offset={offset} />
  );
}

interface LiveCostOverlayProps {
  readonly store: SessionStore;
  readonly view: SessionView;
  readonly agent: TurnAgent;
  /** The prompt estimate of the call in flight (the screen's `usePromptEstimate`). */
  readonly requestTokens: number | null;
  readonly width: number;
  readonly height: number;
  readonly offset: number;
}

/** `/cost` while a reply streams: the call in flight's estimate moves with the streamed text (`useLiveNow`). */
export function LiveCostOverlay({ store, view, agent, requestTokens, width, height, offset }: LiveCostOverlayProps) {
  const { live } = useLiveNow();
  const outputTokens = live.callOpen ? streamedTokens(live) : 0;
  const input = useMemo(
    () => ({
      rows: store.usage,
      pathIds: view.pathIds,
      lane: view.head.lane,
      model: agent.model,
      estimate: callEstimate(live, requestTokens, agent, view.usage.cachedPrefixTokens),
    }),
    // `live` is read for the figures named here; the usage rows grow in place.
    [
      store.usage,
      store.usage.length,
      view.pathIds,
      view.head.lane,
      agent,
      agent.model,
      live.callOpen,
      outputTokens,
      requestTokens,
    ],
  );
  return <CostOverlay input={input} width={width} height={height} offset={offset} />;
}
