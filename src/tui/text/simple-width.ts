/**
 * The width of text made only of characters that need no grapheme segmentation and no emoji
 * check: printable ASCII, and the BMP punctuation, symbols, arrows, box drawing and letters in
 * SIMPLE_RANGES. `string-width` (what Ink and tole measure with) segments every other string and
 * checks each cluster against `\p{RGI_Emoji}`, a pattern that alone takes ~10 ms to build, and the
 * first frame's text (borders, `·`, `⏎`, arrows) needs neither. For these characters the answer is
 * string-width's own, code point by code point (a test checks every one of them against it).
 */
import { eastAsianWidth } from 'get-east-asian-width';

/**
 * Code points each of which is a grapheme cluster of its own beside any other of them or ASCII
 * (Grapheme_Cluster_Break Other), visible, no emoji alone, and as wide as its East Asian Width
 * says (ambiguous as narrow, as string-width measures by default).
 */
export const SIMPLE_RANGES: readonly (readonly [number, number])[] = [
  [0x00a1, 0x00ac],
  [0x00ae, 0x02ff],
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x2070, 0x20bf],
  [0x2100, 0x214f],
  [0x2190, 0x23ff],
  [0x2400, 0x24ff],
  [0x2500, 0x27bf],
  // Braille: the status bar's spinner, on every frame while a reply streams.
  [0x2800, 0x28ff],
  [0x2900, 0x2bff],
];

function isSimple(code: number): boolean {
  if (code < 0xa1 || code > 0x2bff) return false;
  for (const [from, to] of SIMPLE_RANGES) {
    if (code < from) return false;
    if (code <= to) return true;
  }
  return false;
}

/** The width of `text` when every character in it is simple (see above); undefined when one is not. */
export function simpleWidth(text: string): number | undefined {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code <= 0x7e) width += 1;
    else if (isSimple(code)) width += eastAsianWidth(code, { ambiguousAsWide: false });
    else return undefined;
  }
  return width;
}

/**
 * SGR sequences (colours, bold, ...) as `strip-ansi` removes them: numbers of at most four digits,
 * the form on which its pattern and this one take exactly the same characters.
 */
const SGR = /\u001b\[(?:\d{1,4}(?:;\d{0,4})*)?m/g;

/** As `simpleWidth`, for text that may hold SGR sequences (which take no cells); undefined for any other escape. */
export function simpleStyledWidth(text: string): number | undefined {
  if (!text.includes('\u001b')) return simpleWidth(text);
  const plain = text.replace(SGR, '');
  return plain.includes('\u001b') ? undefined : simpleWidth(plain);
}
