/**
 * The one terminal sanitizer: text from a model, a tool, a file or a config, made safe to write
 * to a terminal by showing every character a terminal would act on instead of letting it act.
 *
 * Each such character is replaced on its own, wherever it stands, so no sequence can be
 * assembled from pieces (split across stream chunks, or around text that is itself replaced):
 * ESC becomes `␛` and the rest of an escape sequence stays as the plain text it is
 * (`␛]52;c;…␇`), so OSC (clipboard, title, links, notifications), DCS, APC, PM, SOS and CSI of
 * any kind are all shown, never read. Other C0 controls and DEL become their control pictures
 * (`␇`, `␈`, `␡`); CR too, unless it ends a line as CRLF; C1 controls (U+0080–U+009F, which a
 * terminal may read as 8-bit ESC [, OSC, ...) and the bidi overrides (U+202A–U+202E,
 * U+2066–U+2069, which reorder what the user reads) are named: `⟨U+009B⟩`, `⟨U+202E⟩`.
 * Newline and tab stay: a caller that lays out cells expands tabs itself.
 */

/** Every character `visibleControls` replaces: a cheap test before any work is done. */
const ACTS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const ACTS_ALL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * What one character that a terminal would act on is shown as: a C0 control its control picture
 * (U+2400 + its code: `␛`, `␇`, `␍`), DEL `␡`, a C1 control or a bidi override its code point
 * (`⟨U+009B⟩`, `⟨U+202E⟩`); null for any other character, newline and tab included (the caller
 * lays those out). The one table every view that shows foreign text uses.
 */
export function visibleCharacter(char: string): string | null {
  const code = char.charCodeAt(0);
  if (char === '\n' || char === '\t') return null;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  if ((code >= 0x80 && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069))
    return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
  return null;
}

function shown(char: string, next: string | undefined): string {
  if (char === '\r' && next === '\n') return char;
  return visibleCharacter(char) ?? char;
}

/** `text` with every character a terminal would act on shown instead (see the file's comment). */
export function visibleControls(text: string): string {
  if (!ACTS.test(text)) return text;
  return text.replace(ACTS_ALL, (char, offset: number) => shown(char, text[offset + 1]));
}

/**
 * The same for text that arrives in pieces (a streamed reply written as it comes): a CR at the
 * end of one piece is held until the next shows whether it begins CRLF. Every other character is
 * replaced on its own, so a sequence split across pieces is shown like a whole one.
 */
export class VisibleControlsStream {
  private heldCr = false;

  /** The piece made visible; a trailing CR waits for the next piece (or `end`). */
  push(piece: string): string {
    let text = this.heldCr ? `\r${piece}` : piece;
    this.heldCr = text.endsWith('\r');
    if (this.heldCr) text = text.slice(0, -1);
    return visibleControls(text);
  }

  /** What is still held: a CR that ended the stream, shown. */
  end(): string {
    const out = this.heldCr ? visibleControls('\r') : '';
    this.heldCr = false;
    return out;
  }
}

/** What JSON.stringify leaves raw that a terminal may act on: DEL, C1 controls, bidi overrides. */
const JSON_RAW_ACTS = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `value` as one line of JSON that is safe on a terminal: JSON.stringify escapes C0 controls
 * (ESC among them) but leaves DEL, C1 controls and bidi overrides as they are; these are escaped
 * too (`\u009b`), which any JSON reader reads back as the same text.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    JSON_RAW_ACTS,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
