import { homedir } from 'node:os';
import { seg, wrapLine, type Line } from '../style/styled-line';
import { wrapPath } from '../text/path-fit';

/** `~/x` for a path under the home directory `home`, else the path as it is. */
export function homeShort(path: string, home: string): string {
  if (home === '' || home === '/') return path;
  const base = home.endsWith('/') ? home.slice(0, -1) : home;
  return path.startsWith(`${base}/`) ? `~${path.slice(base.length)}` : path;
}

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
