import { homedir } from 'node:os';
import { seg, wrapLine, type Line } from '../style/styled-line';
import { homeShort, wrapPath } from '../text/path-fit';

/** What an empty session's transcript says: what tole keeps, and where the session is kept. */
export function welcomeLines(sessionPath: string, readOnly: boolean, width: number, home = homedir()): Line[] {
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
    // commands and every key, and while a turn runs the prompt says how to stop it, steer it or
    // queue a prompt: said again here, they were rows to draw on the first screen and to erase at
    // the first prompt.
    ...(readOnly
      ? [...wrapLine([seg('This session is open read-only: browse it, nothing is written.', 'text')], width), []]
      : []),
  ];
  // Under the home directory as `~/…` (as a shell takes it), and broken after a separator, so that
  // no name is split across lines while it fits on one.
  const label = 'session  ';
  wrapPath(homeShort(sessionPath, home), Math.max(1, width - label.length)).forEach((piece, i) => {
    lines.push([seg(i === 0 ? label : ' '.repeat(label.length), 'faint'), seg(piece, 'faint')]);
  });
  return lines;
}
