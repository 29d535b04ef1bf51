import { useMemo, useRef } from 'react';
import type { SessionStore } from '../core/storage/session-store';
import type { ScreenLayout } from './layout';
import { counted, formatMs } from './format';
import { sessionName } from '../core/session/session-name';
import { useWindowLearned } from './use-window-learned';
import { useLiveCost } from './use-live-cost';
import { liveLines, retryRemainingMs } from './live-lines';
import { innerSize } from './PaneFrame';
import type { PaneContent } from './Panes';
import { registerLines } from './register-lines';
import type { Line } from './styled-line';
import { LineCache, scrollToTop, scrollTranscript, transcriptWindow, type ScrollAnchor } from './transcript-window';
import type { LiveTurn, TurnAgent } from './turn-controller';
import type { LiveCost } from './use-live-cost';
import type { UiState } from './ui-state';
import { usageLines } from './usage-lines';
import { welcomeLines } from './welcome-lines';
import type { SessionView } from './use-session-view';

export interface PaneContentInput {
  readonly store: SessionStore;
  readonly agent: TurnAgent;
  readonly view: SessionView;
  readonly live: LiveTurn;
  readonly ui: UiState;
  readonly awaitingApproval: boolean;
  readonly nowMs: number;
  readonly usageWidth: number;
  readonly readOnly: boolean;
}

export interface LaidOutContent {
  readonly transcript: PaneContent;
  readonly usage: PaneContent;
  readonly registers: PaneContent;
  readonly selected: number;
  readonly transcriptHeight: number;
  readonly scrollTranscript: (delta: number) => ScrollAnchor;
  readonly topOfTranscript: () => ScrollAnchor;
}

/** `windowed`, remembering its last answer: the same lines, offset and height give the same object. */
function useMemoWindow(title: string): (lines: readonly Line[], offset: number, height: number) => PaneContent {
  const last = useRef<{ lines: readonly Line[]; offset: number; height: number; content: PaneContent } | null>(null);
  return (lines, offset, height) => {
    const held = last.current;
    if (held && held.lines === lines && held.offset === offset && held.height === height) return held.content;
    const content = windowed(title, lines, offset, height);
    last.current = { lines, offset, height, content };
    return content;
  };
}

/** Cuts a pane's lines to its height from a scroll offset, and says where it is when it does not all fit. */
function windowed(title: string, lines: readonly Line[], offset: number, height: number): PaneContent {
  const top = Math.max(0, Math.min(offset, lines.length - height));
  const note = lines.length > height ? `${top + 1}-${Math.min(lines.length, top + height)}/${lines.length}` : undefined;
  return { title, lines: lines.slice(top, top + height), ...(note ? { note } : {}) };
}

function activity(live: LiveTurn, awaitingApproval: boolean): string | null {
  if (live.phase === 'idle') return null;
  if (awaitingApproval) return 'awaiting approval';
  const [first, ...others] = live.activeTools;
  if (first) return others.length === 0 ? `running ${first.tool}` : `running ${live.activeTools.length} tools`;
  if (live.task) return live.task;
  if (live.text || live.reasoning) return 'streaming';
  return live.phase === 'resuming' ? 'resuming' : 'waiting for the model';
}

/** The content of every pane: only what is on screen is laid out. */
export function usePaneContent(input: PaneContentInput): {
  usageLineCount: number;
  cost: LiveCost;
  forLayout: (layout: ScreenLayout) => LaidOutContent;
} {
  const { store, agent, view, live, ui, awaitingApproval, nowMs, usageWidth, readOnly } = input;
  const cache = useRef(new LineCache()).current;
  useWindowLearned(agent);
  const cost = useLiveCost(store, agent, view, live);
  const doing = activity(live, awaitingApproval);
  const elapsedMs = live.startedAtMs === null ? 0 : nowMs - live.startedAtMs;
  const remainingMs = live.retry ? retryRemainingMs(live, nowMs) : null;
  const window = agent.knownWindow;
  // Laid out again only when a figure it shows moved: streamed text moves it once a frame at most.
  const usage = useMemo(
    () =>
      usageLines(
        view.usage,
        {
          activity: doing,
          estimate: cost.estimate,
          fill: cost.fill,
          elapsedMs,
          retry: live.retry ? { outcome: live.retry.outcome, remainingMs } : null,
        },
        usageWidth,
        window,
      ),
    [view.usage, doing, cost, formatMs(elapsedMs), live.retry, remainingMs, usageWidth, window],
  );
  // The same window of the same lines is the same content: the usage pane is not drawn again for nothing.
  const usagePane = useMemoWindow('usage');
  const registersPane = useMemoWindow('registers');
  const registersAll = useMemo(() => registerLines(store, usageWidth), [store, store.lastSeq, usageWidth]);
  const selectedId = ui.selectedId ?? view.head.entryId;
  const selected =
    selectedId === null ? view.rows.rows.length - 1 : (view.rows.indexOf.get(selectedId) ?? view.rows.rows.length - 1);

  const forLayout = (layout: ScreenLayout): LaidOutContent => {
    const rect = layout.transcript ?? {
      width: layout.narrow ? (layout.usage?.width ?? 80) : 80,
      height: layout.panesHeight,
    };
    const inner = innerSize(rect.width, rect.height);
    const empty = view.path.length === 0 && live.phase === 'idle';
    const tail = empty
      ? welcomeLines(store.path, readOnly, inner.width)
      : liveLines(live, agent.model, nowMs, awaitingApproval, inner.width);
    const window = transcriptWindow(view.path, tail, cache, inner.width, inner.height, ui.transcript);
    const atInnerEntry = view.head.entryId !== null && !store.tree.isLeaf(view.head.entryId);
    const branchNote = !atInnerEntry
      ? ''
      : readOnly
        ? ` · viewing ${view.head.entryId}`
        : ` · at ${view.head.entryId}, next prompt branches`;
    // A named session carries its name at the head of the screen (/name, R in the tree).
    const name = sessionName(store);
    const transcript: PaneContent = {
      title: `${name === null ? '' : `${name} · `}${view.head.lane} · ${counted(view.path.length, 'entry', 'entries')}${branchNote}`,
      lines: window.lines,
      keys: window.keys,
      ...(window.following ? {} : { note: window.atTop ? 'top · End follows' : '↑ scrolled · End follows' }),
    };
    const usageRect = innerSize(layout.usage?.width ?? usageWidth + 3, layout.usage?.height ?? 0);
    const registersRect = innerSize(layout.registers?.width ?? usageWidth + 3, layout.registers?.height ?? 0);
    return {
      transcript,
      usage: usagePane(usage, ui.usageOffset, usageRect.height),
      registers: registersPane(registersAll, ui.registersOffset, registersRect.height),
      selected: Math.max(0, selected),
      transcriptHeight: inner.height,
      scrollTranscript: (delta) => scrollTranscript(window, delta, view.path, tail, cache, inner.width, inner.height),
      topOfTranscript: () => scrollToTop(view.path),
    };
  };
  return { usageLineCount: usage.length, cost, forLayout };
}
