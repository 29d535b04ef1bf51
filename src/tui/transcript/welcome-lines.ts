import { seg, wrapLine, type Line } from '../style/styled-line';
import { wrapPath } from '../text/path-fit';

/** What an empty session's transcript says: how to start, and where the session is kept. */
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
    ...wrapLine(
      [
        seg(
          readOnly
            ? 'This session is open read-only: browse it, nothing is written.'
            : 'Type a prompt below and press ⏎.',
          'text',
        ),
      ],
      width,
    ),
    ...wrapLine([seg('Esc stops a running turn; prompts typed meanwhile wait in a queue.', 'muted')], width),
    ...wrapLine(
      [
        seg(
          'Tab moves between panes: the tree (↑↓ entries, ←→ branches, ⏎ check out and branch from there), the transcript, usage and registers.',
          'muted',
        ),
      ],
      width,
    ),
    ...wrapLine([seg('? lists every key; /help every command.', 'muted')], width),
    [],
  ];
  // Broken after a separator, so that no name is split across lines while it fits on one.
  const label = 'session  ';
  wrapPath(sessionPath, Math.max(1, width - label.length)).forEach((piece, i) => {
    lines.push([seg(i === 0 ? label : ' '.repeat(label.length), 'faint'), seg(piece, 'faint')]);
  });
  return lines;
}
