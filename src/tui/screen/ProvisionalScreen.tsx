import { Box } from 'ink';
import type { TailPreview } from '../../core/storage/tail-preview';
import { flashLines, FlashLine } from '../status/FlashLine';
import { screenLayout } from '../panes/layout';
import { LinesPane } from '../panes/LinesPane';
import { paneInnerSize, type PaneEdge } from '../panes/RuledPane';
import { promptLayout, promptPlaceholder } from '../prompt/prompt-layout';
import { PromptLine } from '../prompt/PromptLine';
import { EMPTY_EDITOR } from '../prompt/line-editor';
import { StyledLine } from '../style/StyledLine';
import { seg, type Line } from '../style/styled-line';
import { FOLLOW, LineCache, transcriptWindow } from '../transcript/transcript-window';

/** What every part of the provisional frame that needs the whole file says instead. */
export const CHECKING = 'checking session…';

export interface ProvisionalScreenProps {
  readonly preview: TailPreview;
  readonly columns: number;
  readonly rows: number;
  readonly readOnly: boolean;
  /** The notices known before the open (the screen flashes them, with any the open adds). */
  readonly notices: readonly string[];
}

const CHECKING_LINES: readonly Line[] = [[seg(CHECKING, 'faint')]];

/**
 * The frame drawn from a large session's last bytes while its open checks the whole file
 * (core/storage/tail-preview.ts): the screen's layout, the transcript's last lines as the checked
 * screen lays them out when the tail holds enough of the head's path to fill the pane, and
 * `checking session…` wherever the whole file is needed (the tree, the counts, usage, registers,
 * the machine's state and seq). It has no hooks and no effects: it is drawn once, as a string, and
 * nothing on it acts (the open holds the event loop until the checked screen replaces it).
 */
export function ProvisionalScreen({ preview, columns, rows, readOnly, notices }: ProvisionalScreenProps) {
  const flash =
    notices.length > 0 ? flashLines({ level: 'warn', text: notices.join(' · '), sticky: true }, columns) : [];
  const prompt = promptLayout(EMPTY_EDITOR, [], columns);
  const layout = screenLayout({
    columns,
    rows,
    focus: 'input',
    promptHeight: prompt.height,
    approvalHeight: 0,
    flashHeight: flash.length,
    usageLines: 0,
  });
  const edge = (wide: PaneEdge): PaneEdge => (layout.narrow ? 'screen' : wide);
  const checking = (title: string, rect: { width: number; height: number } | null, at: PaneEdge) =>
    rect ? (
      <LinesPane
        title={title}
        lines={CHECKING_LINES}
        width={rect.width}
        height={rect.height}
        focused={false}
        edge={at}
      />
    ) : null;
  const rect = layout.transcript;
  const transcript = rect ? transcriptLines(preview, rect.width, rect.height) : null;
  const lane = preview.head?.lane;
  const transcriptPane =
    rect && transcript ? (
      <LinesPane
        title={lane ? `${lane} · ${CHECKING}` : CHECKING}
        lines={transcript}
        width={rect.width}
        height={rect.height}
        focused={false}
        edge={edge('beside')}
      />
    ) : null;
  const status: Line = [seg(` ⋯ ${CHECKING}${readOnly ? ' · read-only' : ''} · ${preview.sessionId}`, 'faint')];
  return (
    <Box flexDirection="column" width={columns} height={layout.lines} overflow="hidden">
      <Box flexDirection="row" height={layout.panesHeight} flexShrink={0}>
        {checking('tree', layout.tree, 'screen')}
        {transcriptPane}
        {layout.narrow ? null : (
          <Box flexDirection="column" flexShrink={0}>
            {checking('usage', layout.usage, 'beside')}
            {checking('registers', layout.registers, 'below')}
          </Box>
        )}
      </Box>
      {flash.length > 0 ? <FlashLine lines={flash} /> : null}
      <PromptLine
        layout={prompt}
        focused
        placeholder={promptPlaceholder({ readOnly, approving: null, running: false })}
        width={columns}
      />
      <StyledLine line={status} />
    </Box>
  );
}

/**
 * The transcript's lines as the checked screen lays them out (following the newest line), when
 * the tail holds enough of the head's path to fill the pane; else `checking session…`.
 */
export function transcriptLines(preview: TailPreview, width: number, height: number): readonly Line[] {
  const inner = paneInnerSize(width, height);
  const window = transcriptWindow(preview.path, [], new LineCache(), inner.width, inner.height, FOLLOW);
  return preview.path.length === 0 || window.atTop ? CHECKING_LINES : window.lines;
}
