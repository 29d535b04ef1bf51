import { Text } from 'ink';
import { graphemes } from '../text/cell-width';

interface CursorTextProps {
  readonly text: string;
  /** The cell the cursor is on, or null when it is not on this text. */
  readonly cursorColumn: number | null;
  readonly focused: boolean;
}

/** Text with the cursor drawn as an inverse cell (a space after the last character), while it has the keyboard. */
export function CursorText({ text, cursorColumn, focused }: CursorTextProps) {
  if (!focused || cursorColumn === null) return <Text>{text}</Text>;
  let before = '';
  let at = ' ';
  let after = '';
  let column = 0;
  for (const g of graphemes(text)) {
    if (column < cursorColumn) before += g.text;
    else if (column === cursorColumn) at = g.text;
    else after += g.text;
    column += g.width;
  }
  return (
    <Text>
      {before}
      <Text inverse>{at}</Text>
      {after}
    </Text>
  );
}
