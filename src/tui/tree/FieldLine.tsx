import { Box, Text } from 'ink';
import { useRef } from 'react';
import { CursorText } from '../prompt/CursorText';
import { lineWindow } from '../prompt/line-window';
import { StyledLine } from '../style/StyledLine';
import { seg } from '../style/styled-line';
import { useTheme } from '../style/use-theme';
import { cellWidth, graphemes, truncate } from '../text/cell-width';
import type { TreeMatches } from './tree-find';
import type { TreeField } from '../screen/ui-state';

interface FieldLineProps {
  readonly field: TreeField;
  /** The find field's matches (null: nothing typed yet). */
  readonly matches: TreeMatches | null;
  /** False while a prompt above it (an approval) holds the keyboard. */
  readonly focus: boolean;
  readonly width: number;
}

/**
 * The one-line field opened over the prompt: `/` finds entries, `L` labels one, `R` (or `/name`)
 * names the session. The key handler edits its text with the prompt's editing keys
 * (input/edit-keys.ts); Enter and Esc go through the keymap (its `find`, `label` and `name`
 * scopes). A value longer than the line scrolls, so that the cursor stays in sight.
 */
export function FieldLine({ field, matches, focus, width }: FieldLineProps) {
  const start = useRef(0);
  const prompt =
    field.kind === 'find' ? 'find: ' : field.kind === 'name' ? 'session name: ' : `label ${field.entryId}: `;
  const { value } = field.editor;
  const count =
    field.kind === 'find' && value !== ''
      ? matches && matches.indexes.length > 0
        ? `${matches.indexes.length} found`
        : 'no match'
      : '';
  const room = Math.max(1, width - cellWidth(prompt) - (count ? cellWidth(count) + 1 : 0));
  const shown = value === '' ? null : lineWindow(field.editor, room, start.current);
  if (shown) start.current = shown.start;
  return (
    <Box width={width} height={1} flexShrink={0}>
      <Box flexShrink={0}>
        <StyledLine line={[seg(prompt, 'accentBold')]} />
      </Box>
      <Box flexGrow={1} overflow="hidden">
        <Text wrap="truncate-end">
          {shown ? (
            <CursorText text={shown.text} cursorColumn={shown.cursorColumn} focused={focus} />
          ) : (
            <Placeholder text={placeholderOf(field.kind)} width={room} focus={focus} />
          )}
        </Text>
      </Box>
      {count ? (
        <Box flexShrink={0} marginLeft={1}>
          <StyledLine line={[seg(count, count === 'no match' ? 'warn' : 'muted')]} />
        </Box>
      ) : null}
    </Box>
  );
}

/** The placeholder of an empty field, its first character under the cursor (as an empty field has always shown it). */
function Placeholder({
  text,
  width,
  focus,
}: {
  readonly text: string;
  readonly width: number;
  readonly focus: boolean;
}) {
  const theme = useTheme();
  const [first, ...rest] = graphemes(text);
  return (
    <Text>
      <Text inverse={focus}>{first?.text ?? ' '}</Text>
      <Text {...theme.style('faint')}>{truncate(rest.map((g) => g.text).join(''), width - 1)}</Text>
    </Text>
  );
}

function placeholderOf(kind: TreeField['kind']): string {
  switch (kind) {
    case 'find':
      return 'text in a prompt, an answer, a tool, a label';
    case 'name':
      return 'a name for this session (empty: remove it)';
    case 'label':
      return 'a label (empty: remove it)';
  }
}
