/**
 * Screen lines painted as `StyledLine` paints them, for panes that hand Ink all their lines as one
 * text node (LinesPane, TreePane): the same text per line, a line per row.
 */
import type { Line } from './styled-line';
import type { StyleName } from './styles';
import type { ThemeView } from './theme-context';

/** Each line painted once per theme: a pane's lines are mostly the same objects frame after frame. */
const painted = new WeakMap<ThemeView, WeakMap<Line, string>>();

/** A line as `StyledLine` paints it: an empty line is a space; `base` is laid under every segment. */
function paintedLine(theme: ThemeView, line: Line, base?: StyleName): string {
  if (line.length === 0) return ' ';
  if (base !== undefined) {
    let text = '';
    for (const segment of line) text += theme.paint(segment.text, segment.style, base);
    return text;
  }
  let byLine = painted.get(theme);
  if (byLine === undefined) painted.set(theme, (byLine = new WeakMap()));
  let text = byLine.get(line);
  if (text === undefined) {
    text = '';
    for (const segment of line) text += theme.paint(segment.text, segment.style);
    byLine.set(line, text);
  }
  return text;
}

/** The lines painted and joined, one per row; `baseOf` gives a line's base style (the selected row's). */
export function paintedLines(
  theme: ThemeView,
  lines: readonly Line[],
  baseOf?: (index: number) => StyleName | undefined,
): string {
  let text = '';
  for (let i = 0; i < lines.length; i++) text += (i === 0 ? '' : '\n') + paintedLine(theme, lines[i]!, baseOf?.(i));
  return text;
}
