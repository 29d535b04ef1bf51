import { Box } from 'ink';
import type { CompletionItem } from './completion-target';
import { seg, truncateLine, type Line } from '../style/styled-line';
import { StyledLine } from '../style/StyledLine';
import { visibleLines } from '../text/visible-text';

/** The popup's rows at most, on a screen of `rows`: it never takes the room the panes need. */
export function popupRoom(rows: number, items: number): number {
  return Math.max(0, Math.min(items, Math.floor((rows - 8) / 2)));
}

/**
 * The popup's lines: the matches in a window of `room` rows that keeps the selected one in view,
 * the selected marked ▸ and bright, each with its note faint beside it, cut to the width.
 */
export function popupLines(items: readonly CompletionItem[], selected: number, room: number, width: number): Line[] {
  if (room === 0) return [];
  const top = Math.max(0, Math.min(selected - room + 1, items.length - room));
  const labelWidth = Math.min(Math.max(...items.map((item) => item.label.length)), Math.max(12, Math.floor(width / 2)));
  return items.slice(top, top + room).map((item, i) => {
    const marked = top + i === selected;
    const label = visibleLines(item.label).join(' ');
    const line: Line = [
      seg(marked ? ' ▸ ' : '   ', 'accentBold'),
      seg(label.padEnd(labelWidth), marked ? 'accentBold' : 'text'),
      ...(item.detail ? [seg(`  ${visibleLines(item.detail).join(' ')}`, 'faint')] : []),
    ];
    return truncateLine(line, width);
  });
}

/** The popup's one faint line while it has nothing to offer yet (the server's models being asked for), cut to the width. */
export function popupNoteLines(note: string, room: number, width: number): Line[] {
  if (room === 0) return [];
  return [truncateLine([seg('   ', 'faint'), seg(visibleLines(note).join(' '), 'faint')], width)];
}

/** The completion popup over the prompt. */
export function CompletionPopup({ lines }: { readonly lines: readonly Line[] }) {
  return (
    <Box flexDirection="column" flexShrink={0}>
      {lines.map((line, i) => (
        <StyledLine key={i} line={line} />
      ))}
    </Box>
  );
}
