import { useMemo, useRef } from 'react';
import type { SessionStore } from '../../core/storage/session-store';
import type { TaskState } from '../../core/session/task-state';
import type { ScreenLayout } from './layout';
import { counted } from '../text/format';
import { sessionName } from '../../core/session/session-name';
import { useWindowLearned } from '../usage/use-window-learned';
import { usePromptEstimate } from '../usage/use-live-cost';
import { paneInnerSize } from './RuledPane';
import type { PaneContent } from './pane-content';
import { useMemoWindow } from './pane-window';
import { registerLines } from '../overlays/register-lines';
import {
  LineCache,
  scrollToTop,
  scrollTranscript,
  transcriptWindow,
  type ScrollAnchor,
} from '../transcript/transcript-window';
import { transcriptTail, type TranscriptInput } from '../transcript/LiveTranscriptPane';
import { turnActivity, type UsageInput } from '../usage/LiveUsagePane';
import type { TurnShape } from '../screen/live-turn-scope';
import type { ContextFill } from '../usage/live-cost';
import type { LiveTurn, TurnAgent } from '../screen/turn-controller';
import type { UiState } from '../screen/ui-state';
import { usageLines, usageRows } from '../usage/usage-lines';
import type { SessionView } from '../screen/use-session-view';

interface PaneContentInput {
  readonly store: SessionStore;
  readonly agent: TurnAgent;
  readonly view: SessionView;
  /** The live turn's shape: the streamed text itself is read by the panes that show it. */
  readonly shape: TurnShape;
  /** The live turn now (for a scroll key, which lays the transcript out as it is on screen). */
  readonly liveNow: () => LiveTurn;
  readonly ui: UiState;
  readonly awaitingApproval: boolean;
  readonly usageWidth: number;
  readonly readOnly: boolean;
  /** The checked-out branch's task state (the plan the registers pane shows). */
  readonly task: TaskState;
}

interface LaidOutContent {
  readonly transcript: TranscriptInput;
  readonly usage: UsageInput;
  readonly registers: PaneContent;
  readonly selected: number;
  readonly transcriptHeight: number;
  readonly scrollTranscript: (delta: number) => ScrollAnchor;
  readonly topOfTranscript: () => ScrollAnchor;
}

/**
 * The content of every pane: only what is on screen is laid out. The transcript and the usage
 * pane get what they show besides the live turn, which they read themselves (LiveTranscriptPane,
 * LiveUsagePane): the same values from one streamed frame to the next, so the screen is not laid
 * out again for a streamed token.
 */
export function usePaneContent(input: PaneContentInput): {
  usageLineCount: number;
  requestTokens: number | null;
  fill: ContextFill | null;
  forLayout: (layout: ScreenLayout) => LaidOutContent;
} {
  const { store, agent, view, shape, ui, awaitingApproval, usageWidth, readOnly } = input;
  const cache = useRef(new LineCache()).current;
  // A sub-agent's entry ids are its own (they may repeat the parent's): its lines are kept apart.
  const childCache = useRef(new LineCache()).current;
  useWindowLearned(agent);
  const { requestTokens, fill } = usePromptEstimate(store, agent, view, shape.callOpen);
  const knownWindow = agent.knownWindow;
  const budgetUsd = agent.budgetUsd ?? null;
  const doing = turnActivity(shape, shape.hasText || shape.hasReasoning, awaitingApproval);
  // How many rows the usage pane takes (the screen's layout gives it its height): the streamed
  // figures in them move, their number does not, nor does it move when a turn starts or ends.
  const usageLineCount = useMemo(
    () =>
      usageRows(
        usageLines(
          view.usage,
          {
            activity: doing,
            estimate: null,
            fill,
            elapsedMs: 0,
            retry: shape.retry ? { outcome: shape.retry.outcome, remainingMs: null } : null,
          },
          usageWidth,
          knownWindow,
          budgetUsd,
        ).length,
        view.usage,
      ),
    [view.usage, doing, fill, shape.retry, usageWidth, knownWindow, budgetUsd],
  );
  const registersPane = useMemoWindow('registers');
  const registersAll = useMemo(
    () => registerLines(store, usageWidth, input.task),
    [store, store.lastSeq, usageWidth, input.task],
  );
  const selectedId = ui.selectedId ?? view.head.entryId;
  const selected =
    selectedId === null ? view.rows.rows.length - 1 : (view.rows.indexOf.get(selectedId) ?? view.rows.rows.length - 1);
  const atInnerEntry = view.head.entryId !== null && !store.tree.isLeaf(view.head.entryId);
  const branchNote = !atInnerEntry
    ? ''
    : readOnly
      ? ` · viewing ${view.head.entryId}`
      : ` · at ${view.head.entryId}, next prompt branches`;
  // A named session carries its name at the head of the screen (/name, R in the tree).
  const name = sessionName(store);
  // An unfolded `task` call, selected: the transcript shows its sub-agent's path instead.
  const child = selectedId === null ? undefined : ui.unfolded.get(selectedId);
  const shownChild = child?.ok ? child : null;
  const transcript: TranscriptInput = {
    title: shownChild
      ? `sub-agent ${shownChild.childId} · ${counted(shownChild.entries.length, 'entry', 'entries')} · read-only (← folds)`
      : `${name === null ? '' : `${name} · `}${view.head.lane} · ${counted(view.path.length, 'entry', 'entries')}${branchNote}`,
    path: shownChild ? shownChild.entries : view.path,
    cache: shownChild ? childCache : cache,
    anchor: ui.transcript,
    model: agent.model,
    awaitingApproval,
    readOnly,
    sessionPath: store.path,
  };
  const usage: UsageInput = {
    agent,
    summary: view.usage,
    requestTokens,
    fill,
    knownWindow,
    budgetUsd,
    awaitingApproval,
    lineWidth: usageWidth,
    offset: ui.usageOffset,
  };

  const forLayout = (layout: ScreenLayout): LaidOutContent => {
    const rect = layout.transcript ?? {
      width: layout.narrow ? (layout.usage?.width ?? 80) : 80,
      height: layout.panesHeight,
    };
    const inner = paneInnerSize(rect.width, rect.height);
    const registersRect = paneInnerSize(layout.registers?.width ?? usageWidth + 3, layout.registers?.height ?? 0);
    return {
      transcript,
      usage,
      registers: registersPane(registersAll, ui.registersOffset, registersRect.height),
      selected: Math.max(0, selected),
      transcriptHeight: inner.height,
      // A scroll key moves from the window on screen: laid out here as the pane lays it out.
      scrollTranscript: (delta) => {
        const tail = transcriptTail(input.liveNow(), store.now(), transcript, inner.width);
        const { path, cache: lines } = transcript;
        const shown = transcriptWindow(path, tail, lines, inner.width, inner.height, ui.transcript);
        return scrollTranscript(shown, delta, path, tail, lines, inner.width, inner.height);
      },
      topOfTranscript: () => scrollToTop(transcript.path),
    };
  };
  return { usageLineCount, requestTokens, fill, forLayout };
}
