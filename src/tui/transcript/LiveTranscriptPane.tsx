import type { DOMElement } from 'ink';
import { memo, useRef } from 'react';
import type { AnyEntry } from '../../core/tree/entry-types';
import { liveLines } from './live-lines';
import { LinesPane, wholeText } from '../panes/LinesPane';
import { onlyText } from '../frame/streamed-bypass';
import { useTheme } from '../style/use-theme';
import { useLiveNow } from '../screen/live-turn-scope';
import { paneInnerSize, type PaneEdge } from '../panes/RuledPane';
import type { Line } from '../style/styled-line';
import { transcriptWindow, type LineCache, type ScrollAnchor, type TranscriptWindow } from './transcript-window';
import type { LiveTurn } from '../screen/turn-controller';
import { welcomeLines } from './welcome-lines';

/** What the transcript shows besides the live turn: all of it the same from one streamed frame to the next. */
export interface TranscriptInput {
  readonly title: string;
  readonly path: readonly AnyEntry[];
  readonly cache: LineCache;
  readonly anchor: ScrollAnchor;
  readonly model: string;
  readonly awaitingApproval: boolean;
  readonly readOnly: boolean;
  readonly sessionPath: string;
}

/**
 * The transcript's last block, after the committed entries: the live turn (the reply as it
 * streams, a running tool, a retry), or the welcome on an empty session.
 */
export function transcriptTail(live: LiveTurn, nowMs: number, input: TranscriptInput, width: number): Line[] {
  if (input.path.length === 0 && live.phase === 'idle') return welcomeLines(input.sessionPath, input.readOnly, width);
  return liveLines(live, input.model, nowMs, input.awaitingApproval, width);
}

interface LiveTranscriptPaneProps extends TranscriptInput {
  readonly width: number;
  readonly height: number;
  readonly focused: boolean;
  readonly edge: PaneEdge;
}

/**
 * The transcript pane, the one pane a streamed token changes the lines of: it reads the live
 * turn itself (`useLiveNow`), so a streamed frame draws it (and lays out the live tail only: the
 * committed entries' lines are kept in `cache`) without drawing the screen around it.
 */
export const LiveTranscriptPane = memo(function LiveTranscriptPane(props: LiveTranscriptPaneProps) {
  const { live, nowMs, vouch } = useLiveNow();
  const theme = useTheme();
  const box = useRef<DOMElement>(null);
  const inner = paneInnerSize(props.width, props.height);
  const windowAt = (turn: LiveTurn, at: number): TranscriptWindow =>
    transcriptWindow(
      props.path,
      transcriptTail(turn, at, props, inner.width),
      props.cache,
      inner.width,
      inner.height,
      props.anchor,
    );
  const window = windowAt(live, nowMs);
  const note = noteOf(window);
  // A streamed frame drawn without React (src/tui/frame/streamed-bypass.ts): the pane's one text
  // node, as a render with the later turn would make it, while its title note stays.
  vouch({
    node: () => onlyText(box.current as Parameters<typeof onlyText>[0]),
    textFor: (turn, at) => {
      const later = windowAt(turn, at);
      return noteOf(later) === note ? wholeText(theme, later.lines, inner.width) : null;
    },
  });
  return (
    <LinesPane
      boxRef={box}
      title={props.title}
      {...(note ? { note } : {})}
      lines={window.lines}
      keys={window.keys}
      width={props.width}
      height={props.height}
      focused={props.focused}
      edge={props.edge}
    />
  );
});

/** The transcript's title note: where it is scrolled to, when it does not follow the end. */
function noteOf(window: TranscriptWindow): string | undefined {
  return window.following ? undefined : window.atTop ? 'top · End follows' : '↑ scrolled · End follows';
}
