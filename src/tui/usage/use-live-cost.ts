import { useEffect, useMemo, useRef, useState } from 'react';
import type { SessionStore } from '../../core/storage/session-store';
import {
  callEstimate,
  contextFill,
  streamedTokens,
  withEstimate,
  type CallEstimate,
  type ContextFill,
  type LiveTotals,
} from './live-cost';
import type { LiveTurn, TurnAgent } from '../screen/turn-controller';
import type { SessionView } from '../screen/use-session-view';
import type { UsageSummary } from './usage-summary';

/** What the call in flight adds to the figures, the context fill, and the session's total with both. */
export interface LiveCost {
  readonly estimate: CallEstimate | null;
  readonly fill: ContextFill | null;
  readonly session: LiveTotals;
}

/**
 * The live cost, worked out again only when a figure in it can move: the rest when the streamed
 * text (published at most once a frame) grows by a token or the call opens or ends. The prompt's
 * estimate and the fill come from the screen (`usePromptEstimate`), which moves them only when
 * the session file, the head or the model changes.
 */
export function useLiveCost(
  agent: TurnAgent,
  summary: UsageSummary,
  live: LiveTurn,
  requestTokens: number | null,
  fill: ContextFill | null,
): LiveCost {
  const model = agent.model;
  const outputTokens = live.callOpen ? streamedTokens(live) : 0;
  return useMemo(
    () => liveCost(agent, summary, live, requestTokens, fill),
    // `live` is read for the figures named here; its other fields do not change the cost.
    [agent, model, live.callOpen, outputTokens, requestTokens, summary, fill],
  );
}

/** The live cost itself (what `useLiveCost` keeps between renders). */
export function liveCost(
  agent: TurnAgent,
  summary: UsageSummary,
  live: LiveTurn,
  requestTokens: number | null,
  fill: ContextFill | null,
): LiveCost {
  const estimate = callEstimate(live, requestTokens, agent, summary.cachedPrefixTokens);
  return { estimate, fill, session: withEstimate(summary.session, estimate) };
}

/** The next call's prompt estimate and the context fill, as the screen's layout needs them (no streamed text in them). */
export function usePromptEstimate(
  store: SessionStore,
  agent: TurnAgent,
  view: SessionView,
  callOpen: boolean,
): { readonly requestTokens: number | null; readonly fill: ContextFill | null } {
  // Needed while a call is open (its prompt), or when the branch has no call to read the fill from.
  const needed = callOpen || view.usage.lastRequestTokens === null;
  const requestTokens = useRequestEstimate(agent, `${store.lastSeq}:${view.head.entryId}:${agent.model}`, view, needed);
  const window = agent.knownWindow;
  const fill = useMemo(
    () => contextFill(callOpen, view.usage.lastRequestTokens, requestTokens, window),
    [callOpen, view.usage.lastRequestTokens, requestTokens, window],
  );
  return { requestTokens, fill };
}

/**
 * The next call's prompt, estimated over the view's path. That walks the whole path (a long
 * uncompacted session takes a while), so it runs after the frame is on the terminal, once per change of
 * the session file, the head or the model, and only while it is needed; the last figure stays
 * on screen (marked `~` like every estimate) until the new one is in.
 */
function useRequestEstimate(agent: TurnAgent, key: string, view: SessionView, needed: boolean): number | null {
  const [estimate, setEstimate] = useState<{ readonly key: string; readonly tokens: number } | null>(null);
  const path = useRef(view.path);
  path.current = view.path;
  const stale = estimate?.key !== key;
  useEffect(() => {
    if (!needed || !stale || !agent.requestTokensEstimate) return;
    const timer = setTimeout(() => setEstimate({ key, tokens: agent.requestTokensEstimate!(path.current) }), 0);
    return () => clearTimeout(timer);
  }, [agent, key, needed, stale]);
  return estimate?.tokens ?? null;
}
