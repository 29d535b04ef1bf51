/**
 * A drop-in for Ink 6.8's `build/sanitize-ansi.js` (swapped in by the bundler:
 * scripts/ink-output-plugin.mjs). Ink sanitizes every text node's whole text on every frame,
 * three times (layout, render, and the text's parent), by tokenizing it. A pane drawn as one
 * text node (src/tui/LinesPane.tsx) is a few thousand characters with colour codes, new on each
 * streamed frame. Text whose only escapes are SGR sequences (colours, bold: what tole's panes
 * hold) comes back from Ink's sanitizer unchanged, so it is returned as it is after one scan;
 * anything else goes to Ink's own.
 */
import inkSanitizeAnsi from '../../node_modules/ink/build/sanitize-ansi.js';

/** C1 control characters: Ink's tokenizer reads each as the start of a control sequence. */
const C1 = /[\u0080-\u009f]/;

/**
 * True when every ESC in `text` starts `ESC [ params m` with params of digits, `:` and `;` only,
 * and no C1 control is there: Ink keeps such a sequence as it is, and text around it too.
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
  return !C1.test(text);
}

export default function sanitizeAnsi(text: string): string {
  return onlySgr(text) ? text : inkSanitizeAnsi(text);
}
