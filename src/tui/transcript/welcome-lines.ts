import { seg, wrapLine, type Line } from '../style/styled-line';
import { wrapPath } from '../text/path-fit';

/** What an empty session's transcript says: what tole keeps, the keys to know first, and where the session is kept. */
export function welcomeLines(sessionPath: string, readOnly: boolean, width: number): Line[] {
  const lines: Line[] = [
    [],
    ...wrapLine(
      [
        seg('tole', 'accentBold'),
        seg(' · every step is written to disk before it happens: a crash loses nothing', 'muted'),
      ],
      width,
    ),
    [],
    // The prompt's row and the status bar under it already say how to send, how to find the
    // commands and every key: said again here, it was three more rows to draw and to erase.
    ...(readOnly
      ? wrapLine([seg('This session is open read-only: browse it, nothing is written.', 'text')], width)
      : []),
    ...wrapLine([seg('Esc stops a running turn; prompts typed meanwhile wait in a queue.', 'muted')], width),
    ...wrapLine([seg('Tab moves between panes; the bar below names the keys of the one in focus.', 'muted')], width),
    [],
  ];
  // Broken after a separator, so that no name is split across lines while it fits on one.
  const label = 'session  ';
  wrapPath(sessionPath, Math.max(1, width - label.length)).forEach((piece, i) => {
    lines.push([seg(i === 0 ? label : ' '.repeat(label.length), 'faint'), seg(piece, 'faint')]);
  });
  return lines;
}
