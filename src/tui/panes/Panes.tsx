import { Box } from 'ink';
import type { ChildPath } from '../tree/child-path';
import type { SessionStore } from '../../core/storage/session-store';
import type { PaneId } from '../input/keymap';
import type { PaneContent } from './pane-content';
import type { ScreenLayout } from './layout';
import type { PaneEdge } from './RuledPane';
import { LinesPane } from './LinesPane';
import { LiveTranscriptPane, type TranscriptInput } from '../transcript/LiveTranscriptPane';
import { LiveUsagePane, type UsageInput } from '../usage/LiveUsagePane';
import { TreePane } from '../tree/TreePane';
import type { SessionView } from '../screen/use-session-view';

interface PanesProps {
  readonly layout: ScreenLayout;
  readonly focus: PaneId;
  readonly store: SessionStore;
  readonly view: SessionView;
  readonly selected: number;
  /** The transcript and usage panes read the live turn themselves: what they show besides it. */
  readonly transcript: TranscriptInput;
  readonly usage: UsageInput;
  readonly registers: PaneContent;
  /** The tree rows the search found. */
  readonly matches?: ReadonlySet<string> | null;
  /** The `task` calls unfolded in the tree, with their sub-agents' entries. */
  readonly unfolded?: ReadonlyMap<string, ChildPath>;
}

/** The four panes: side by side on a wide screen, one at a time on a narrow one. */
export function Panes({
  layout,
  focus,
  store,
  view,
  selected,
  transcript,
  usage,
  registers,
  matches = null,
  unfolded,
}: PanesProps) {
  const { tree: treeRect, transcript: transcriptRect, usage: usageRect, registers: registersRect } = layout;
  const tree = treeRect ? (
    <TreePane
      store={store}
      rows={view.rows}
      selected={selected}
      headId={view.head.entryId}
      pathIds={view.pathIds}
      labels={view.labels}
      branches={view.laneCount}
      width={treeRect.width}
      height={treeRect.height}
      focused={focus === 'tree'}
      matches={matches}
      {...(unfolded ? { unfolded } : {})}
    />
  ) : null;
  // Side by side, each pane right of the tree shares a rule with the one on its left; on a narrow
  // screen the one pane shown is at the screen's edge.
  const edge = (wide: PaneEdge): PaneEdge => (layout.narrow ? 'screen' : wide);
  const pane = (id: PaneId, content: PaneContent, rect: { width: number; height: number } | null) =>
    rect ? (
      <LinesPane
        title={content.title}
        {...(content.note ? { note: content.note } : {})}
        lines={content.lines}
        {...(content.keys ? { keys: content.keys } : {})}
        width={rect.width}
        height={rect.height}
        focused={focus === id}
        edge={edge('below')}
      />
    ) : null;
  const transcriptPane = transcriptRect ? (
    <LiveTranscriptPane
      {...transcript}
      width={transcriptRect.width}
      height={transcriptRect.height}
      focused={focus === 'transcript'}
      edge={edge('beside')}
    />
  ) : null;
  const usagePane = usageRect ? (
    <LiveUsagePane
      {...usage}
      width={usageRect.width}
      height={usageRect.height}
      focused={focus === 'usage'}
      edge={edge('beside')}
    />
  ) : null;
  if (layout.narrow) {
    return (
      <Box height={layout.panesHeight} flexShrink={0}>
        {tree}
        {transcriptPane}
        {usagePane}
        {pane('registers', registers, registersRect)}
      </Box>
    );
  }
  return (
    <Box flexDirection="row" height={layout.panesHeight} flexShrink={0}>
      {tree}
      {transcriptPane}
      <Box flexDirection="column" flexShrink={0}>
        {usagePane}
        {pane('registers', registers, registersRect)}
      </Box>
    </Box>
  );
}
