import { useMemo } from 'react';
import type { SessionStore } from '../core/storage/session-store';
import {
  callEstimate,
  contextFill,
  streamedTokens,
  withEstimate,
  type CallEstimate,
  type ContextFill,
  type LiveTotals,
} from './live-cost';
import type { LiveTurn, TurnAgent } from './turn-controller';
import type { SessionView } from './use-session-view';

/** What the call in flight adds to the figures, the context fill, and the session's total with both. */
export interface LiveCost {
  readonly estimate: CallEstimate | null;
  readonly fill: ContextFill | null;
  readonly session: LiveTotals;
}

/**
 * The live cost, worked out again only when a figure in it can move: the prompt estimate when
 * the session file or the model changes, the rest when the streamed text (published at most
 * once a frame) grows by a token or the call opens or ends.
 */
export function useLiveCost(store: SessionStore, agent: TurnAgent, view: SessionView, live: LiveTurn): LiveCost {
  const model = agent.model;
  const requestTokens = useMemo(
    () => agent.requestTokensEstimate?.() ?? null,
    [agent, model, store.lastSeq, view.head.entryId],
  );
  const outputTokens = live.callOpen ? streamedTokens(live) : 0;
  const window = agent.knownWindow;
  return useMemo(() => {
    const estimate = callEstimate(live, requestTokens, agent);
    const fill = contextFill(live.callOpen, view.usage.lastRequestTokens, requestTokens, window);
    return { estimate, fill, session: withEstimate(view.usage.session, estimate) };
    // `live` is read for the figures named here; its other fields do not change the cost.
  }, [agent, model, live.callOpen, outputTokens, requestTokens, view.usage, window]);
}
