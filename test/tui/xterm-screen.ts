/**
 * A headless xterm for frame-writer tests: the screen tole's output leaves, cell by cell (each
 * cell's character, width, colours and attributes), and the same screen drawn whole.
 */
import headless from '@xterm/headless';

const { Terminal } = headless;
export type Terminal = InstanceType<typeof Terminal>;

export function terminal(width: number, height: number): Terminal {
  const term = new Terminal({ cols: width, rows: height, allowProposedApi: true });
  // The modes tole runs in: the alternate screen with auto-wrap off.
  term.write('\x1b[?1049h\x1b[?7l');
  return term;
}

export const flush = (term: Terminal, data: string): Promise<void> =>
  new Promise((resolve) => term.write(data, resolve));

export function cells(term: Terminal): string[] {
  const buffer = term.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(y)!;
    const row: string[] = [];
    for (let x = 0; x < term.cols; x++) {
      const c = line.getCell(x)!;
      const attributes = [
        c.isBold(),
        c.isDim(),
        c.isItalic(),
        c.isUnderline(),
        c.isInverse(),
        c.isStrikethrough(),
        c.isInvisible(),
        c.isBlink(),
      ]
        .map(Number)
        .join('');
      // A cell never written and a cell holding an unstyled space look the same.
      row.push(
        `${JSON.stringify(c.getChars() || ' ')}/${c.getWidth()}/${c.getFgColorMode()}:${c.getFgColor()}/${c.getBgColorMode()}:${c.getBgColor()}/${attributes}`,
      );
    }
    rows.push(`${y}: ${row.join(' ')}`);
  }
  return rows;
}

/** The frame drawn whole on a fresh terminal: each line at its row. */
export async function wholeDraw(frame: string, width: number, height: number): Promise<string[]> {
  const term = terminal(width, height);
  const lines = frame.split('\n');
  await flush(term, lines.map((line, i) => `\x1b[${i + 1};1H\x1b[0m${line}\x1b[0m`).join(''));
  const seen = cells(term);
  term.dispose();
  return seen;
}
