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

/** xterm's colour modes (IBufferCell's getFgColorMode) for a palette index and for 24-bit colour. */
const PALETTE_MODE = 0x2000000;
const RGB_MODE = 0x3000000;

/**
 * A cell's colour as mode:value, a colour of the 256-colour palette's cube or grey ramp (16 to 255)
 * given as the 24-bit colour xterm draws it with, so that the same colour sent either way reads the
 * same (the frame writer sends exact palette colours by index: src/tui/frame/sgr-codes.ts).
 */
function colourOf(mode: number, value: number): string {
  if (mode !== PALETTE_MODE || value < 16) return `${mode}:${value}`;
  const levels = [0, 0x5f, 0x87, 0xaf, 0xd7, 0xff];
  const rgb =
    value >= 232
      ? [8 + 10 * (value - 232), 8 + 10 * (value - 232), 8 + 10 * (value - 232)]
      : [levels[Math.floor((value - 16) / 36)]!, levels[Math.floor((value - 16) / 6) % 6]!, levels[(value - 16) % 6]!];
  return `${RGB_MODE}:${(rgb[0]! << 16) | (rgb[1]! << 8) | rgb[2]!}`;
}

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
      const char = c.getChars() || ' ';
      // A cell never written and a cell holding an unstyled space look the same; so does a space in
      // a foreground colour, bold, dim, italic, blinking or hidden (none of them shows on a space).
      const unseen = char === ' ' && !c.isUnderline() && !c.isInverse() && !c.isStrikethrough() && !c.isOverline();
      row.push(
        unseen
          ? `" "/${c.getWidth()}/0:0/${colourOf(c.getBgColorMode(), c.getBgColor())}/blank`
          : `${JSON.stringify(char)}/${c.getWidth()}/${colourOf(c.getFgColorMode(), c.getFgColor())}/${colourOf(c.getBgColorMode(), c.getBgColor())}/${attributes}`,
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

/**
 * What a terminal of `width` x `height` shows, row by row as plain text, once `written` (everything
 * a screen wrote to it, in order) has reached it: for a test that waits on what is on screen when
 * the writes are only the cells that changed.
 */
export async function shownText(written: string, width: number, height: number): Promise<string> {
  const term = new Terminal({ cols: width, rows: height, allowProposedApi: true });
  await flush(term, written);
  const buffer = term.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < height; y++) rows.push(buffer.getLine(y)!.translateToString(true));
  term.dispose();
  return rows.join('\n');
}
