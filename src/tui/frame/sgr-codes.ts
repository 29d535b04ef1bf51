/**
 * Style codes written short. A frame of panes changes style every few cells, and each change used
 * to go out as one escape sequence per code, colours as 24-bit triples (`ESC[38;2;208;208;208m`,
 * 19 bytes). Here the codes of one change go out as a single sequence (`ESC[0;1;38;5;252m`), and a
 * 24-bit colour that the 256-colour palette holds exactly is sent as its index: the same colour on
 * the screen, in about half the bytes. tole's themes pick such colours.
 */

const SGR = /^\x1b\[([0-9;:]*)m$/;
const TRUE_COLOUR = /^([345]8);2;(\d{1,3});(\d{1,3});(\d{1,3})$/;
/** The levels of each of red, green and blue in the palette's 6×6×6 cube (indices 16 to 231). */
const CUBE = [0, 95, 135, 175, 215, 255];
/**
 * Cube indices below this are not used: 16 to 21 are the ones some colour schemes for the shell
 * (base16) set to colours of their own. The rest of the cube and the grey ramp are left as xterm
 * defines them by every terminal that has a 256-colour palette.
 */
const FIRST_CUBE_INDEX = 22;

/**
 * The index in the 256-colour palette (xterm's cube and grey ramp) of exactly this colour, or -1
 * when it holds no such colour (or only at an index a colour scheme may have changed).
 */
export function paletteIndex(red: number, green: number, blue: number): number {
  const r = CUBE.indexOf(red);
  const g = CUBE.indexOf(green);
  const b = CUBE.indexOf(blue);
  if (r >= 0 && g >= 0 && b >= 0) {
    const index = 16 + 36 * r + 6 * g + b;
    if (index >= FIRST_CUBE_INDEX) return index;
  }
  // The grey ramp, 232 to 255: 8, 18, ..., 238.
  if (red === green && green === blue && red >= 8 && red <= 238 && (red - 8) % 10 === 0) return 232 + (red - 8) / 10;
  return -1;
}

/** The parameters of an SGR code (its true colour as a palette index where that is exact), or null for another code. */
function parameters(code: string): string | null {
  const sgr = SGR.exec(code);
  if (sgr === null) return null;
  const params = sgr[1]!;
  const colour = TRUE_COLOUR.exec(params);
  if (colour !== null) {
    const index = paletteIndex(Number(colour[2]), Number(colour[3]), Number(colour[4]));
    if (index >= 0) return `${colour[1]};5;${index}`;
  }
  return params === '' ? '0' : params;
}

/**
 * `codes` as few escape sequences as they can go in: every SGR among them, in their order, in one
 * sequence, and the others (a hyperlink's start or end) after it, in theirs. A code given twice is
 * sent once.
 */
export function joinCodes(codes: Iterable<string>): string {
  const sgr: string[] = [];
  let others = '';
  for (const code of new Set(codes)) {
    const params = parameters(code);
    if (params === null) others += code;
    else sgr.push(params);
  }
  return (sgr.length === 0 ? '' : `\x1b[${sgr.join(';')}m`) + others;
}
