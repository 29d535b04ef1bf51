/**
 * tole's sanitizer for Ink's text nodes, in place of Ink 6.8's `build/sanitize-ansi.js`
 * (swapped in by the bundler: scripts/ink-output-plugin.mjs). Ink calls it on every text node's
 * whole text (several times a frame) and keeps OSC sequences (clipboard, title, links) as they
 * are; tole lets through only SGR sequences (colours, bold: the styling its painters and Ink's
 * colour props make) and shows everything else a terminal would act on, through the one terminal
 * sanitizer (src/core/terminal-text.ts). Text whose only escapes are SGR sequences (what tole's
 * panes hold) is returned as it is after one scan.
 */
import { visibleActingControls } from '../../core/terminal-text';
import { drawnEmoji } from '../text/drawn-emoji';

/** An SGR sequence as tole and Ink write them: `ESC [ params m`, params digits, `:` and `;`. */
const SGR = /\u001b\[[0-9:;]*m/g;

/**
 * True when every ESC in `text` starts `ESC [ params m` with params of digits, `:` and `;` only,
 * and nothing else a terminal acts on is there.
 */
export function onlySgr(text: string): boolean {
  for (let at = text.indexOf('\u001b'); at !== -1; at = text.indexOf('\u001b', at)) {
    if (text.charCodeAt(at + 1) !== 0x5b) return false;
    let end = at + 2;
    for (; end < text.length; end++) {
      const code = text.charCodeAt(end);
      // Digits, ':' and ';'.
      if (code < 0x30 || code > 0x3b) break;
    }
    if (text.charCodeAt(end) !== 0x6d) return false;
    at = end + 1;
  }
  return !ACTS_BESIDES_ESC.test(text);
}

/** What the sanitizer shows, ESC aside (each ESC was checked above): as src/core/terminal-text.ts's. */
const ACTS_BESIDES_ESC = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * What each text was sanitized to, for the texts of the last frames: Ink sanitizes every text
 * node's whole text when Yoga measures it and again when it is drawn, and every node on screen at
 * each frame, changed or not; a streamed frame changes one or two. Two generations of at most
 * `KEPT` texts each (the newer becomes the older when full), so a long stream keeps it bounded.
 * The sanitizer is a function of the text alone, so a kept result is the one it would make.
 */
const KEPT = 256;
let newer = new Map<string, string>();
let older = new Map<string, string>();

export default function sanitizeAnsi(raw: string): string {
  let kept = newer.get(raw);
  if (kept === undefined) {
    kept = older.get(raw) ?? sanitized(raw);
    if (newer.size >= KEPT) {
      older = newer;
      newer = new Map();
    }
    newer.set(raw, kept);
  }
  return kept;
}

function sanitized(raw: string): string {
  // Emoji parts terminals draw at other widths than Ink measures are left out (drawn-emoji.ts).
  const text = drawnEmoji(raw);
  if (onlySgr(text)) return text;
  let out = '';
  let from = 0;
  for (const match of text.matchAll(SGR)) {
    out += visibleActingControls(text.slice(from, match.index)) + match[0];
    from = match.index + match[0].length;
  }
  return out + visibleActingControls(text.slice(from));
}
