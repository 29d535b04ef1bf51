import { Box, Text } from 'ink';
import { useFlushedEffects } from '../screen/use-flushed-effects';
import TextInput from 'ink-text-input';
import { StyledLine } from '../style/StyledLine';
import { seg } from '../style/styled-line';
import type { TreeMatches } from './tree-find';
import type { TreeField } from '../screen/ui-state';

interface FieldLineProps {
  readonly field: TreeField;
  /** The find field's matches (null: nothing typed yet). */
  readonly matches: TreeMatches | null;
  /** False while a prompt above it (an approval) holds the keyboard. */
  readonly focus: boolean;
  readonly width: number;
  readonly onChange: (value: string) => void;
}

/**
 * The one-line field opened over the prompt: `/` finds entries, `L` labels one, `R` (or `/name`)
 * names the session. The text is edited by ink-text-input; Enter and Esc go through the keymap
 * (its `find`, `label` and `name` scopes).
 */
export function FieldLine({ field, matches, focus, width, onChange }: FieldLineProps) {
  // ink-text-input subscribes again after each change of the value: the next key must find it.
  useFlushedEffects(field.value);
  const prompt =
    field.kind === 'find' ? 'find: ' : field.kind === 'name' ? 'session name: ' : `label ${field.entryId}: `;
  const count =
    field.kind === 'find' && field.value !== ''
      ? matches && matches.indexes.length > 0
        ? `${matches.indexes.length} found`
        : 'no match'
      : '';
  const placeholder =
    field.kind === 'find'
      ? 'text in a prompt, an answer, a tool, a label'
      : field.kind === 'name'
        ? 'a name for this session (empty: remove it)'
        : 'a label (empty: remove it)';
  return (
    <Box width={width} height={1} flexShrink={0}>
      <Box flexShrink={0}>
        <StyledLine line={[seg(prompt, 'accentBold')]} />
      </Box>
      <Box flexGrow={1} overflow="hidden">
        <Text wrap="truncate-end">
          <TextInput value={field.value} focus={focus} placeholder={placeholder} onChange={onChange} />
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
