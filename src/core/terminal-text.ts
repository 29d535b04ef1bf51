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
 * U+2066–U+2069, which reorder what the user reads) are named: `⟨U+009B⟩`, `⟨U+202E⟩`; so is
 * every character that draws nothing (zero-width marks, fillers, tags: `⟨U+200B⟩`), so a path or
 * command named in a notice or a prompt cannot look like another, but for the parts of a whole
 * emoji. Newline and tab stay: a caller that lays out cells expands tabs itself.
 */

/** The controls a terminal acts on: C0 but newline and tab, DEL, C1, the bidi overrides and isolates. */
const CONTROL_CLASS = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069';

/**
 * What draws nothing, by Unicode's property and not a list: Default_Ignorable_Code_Point (zero-width
 * space, joiners, the bidi marks U+200E/U+200F/U+061C, soft hyphen, the Hangul fillers U+3164,
 * U+115F, U+1160, U+FFA0 that terminals draw as blanks, variation selectors, tag characters) and
 * the line and paragraph separators. `rm -rf build\u3164` must never read as `rm -rf build`.
 */
const HIDDEN_CLASS = '\\p{Default_Ignorable_Code_Point}\\p{Zl}\\p{Zp}';

/** Every character `visibleControls` replaces: a cheap test before any work is done. */
const ACTS = new RegExp(`[${CONTROL_CLASS}${HIDDEN_CLASS}]`, 'u');
const ACTS_ALL = new RegExp(`[${CONTROL_CLASS}${HIDDEN_CLASS}]`, 'gu');
const CONTROLS = new RegExp(`[${CONTROL_CLASS}]`);
const CONTROLS_ALL = new RegExp(`[${CONTROL_CLASS}]`, 'g');
const HIDDEN = new RegExp(`[${HIDDEN_CLASS}]`, 'u');

/**
 * The hidden characters that are parts of emoji (the joiner U+200D, the presentation selectors
 * U+FE0E/U+FE0F, the tag characters of a subdivision flag): text holding none of them has no
 * emoji sequence to keep whole.
 */
const EMOJI_PARTS = /[\u200d\ufe0e\ufe0f\u{e0020}-\u{e007f}]/u;

/**
 * A whole emoji as Unicode recommends it (RGI: a ZWJ family, a flag, a keycap, ❤️): drawn as one
 * picture, so the hidden parts inside it are left as they are. Any other sequence (a joiner after
 * a letter, a selector after a digit, tags after a flag that names no subdivision) is not one, and
 * its hidden parts are named. Built at run time: the `v` flag is newer than the compile target.
 * Built on first use, not when the module loads: V8 parses Unicode's whole emoji list for it, about
 * 10 ms of CPU, which every start of tole paid (a third of `tole --version`'s), and most runs never
 * show an emoji part. `all` finds each whole emoji in a text, `whole` tests that a text is one
 * (most graphemes that hold an emoji part).
 */
const UNICODE_SETS: string = 'v';
let rgiEmoji: { readonly all: RegExp; readonly whole: RegExp } | undefined;
function rgi(): { readonly all: RegExp; readonly whole: RegExp } {
  rgiEmoji ??= {
    all: new RegExp('\\p{RGI_Emoji}', `g${UNICODE_SETS}`),
    whole: new RegExp('^\\p{RGI_Emoji}$', UNICODE_SETS),
  };
  return rgiEmoji;
}

const EMOJI_PARTS_ALL = new RegExp(EMOJI_PARTS.source, 'gu');

let graphemeSegmenter: Intl.Segmenter | undefined;

/**
 * `text` with `show(from, to)` put for each stretch outside a whole emoji, the emoji kept. A whole
 * emoji is one grapheme, so only the graphemes that hold an emoji part are matched against
 * Unicode's list: matching a whole line against it cost ~80 µs however few emoji it held (a line
 * with one ⚠️, every frame a reply streams), a grapheme costs a few.
 */
function outsideEmoji(text: string, show: (from: number, to: number) => string): string {
  graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const segments = graphemeSegmenter.segment(text);
  let out = '';
  let from = 0;
  let looked = 0;
  for (const part of text.matchAll(EMOJI_PARTS_ALL)) {
    if (part.index < looked) continue;
    const grapheme = segments.containing(part.index)!;
    looked = grapheme.index + grapheme.segment.length;
    if (rgi().whole.test(grapheme.segment)) {
      out += show(from, grapheme.index) + grapheme.segment;
      from = looked;
      continue;
    }
    for (const emoji of grapheme.segment.matchAll(rgi().all)) {
      const at = grapheme.index + emoji.index;
      out += show(from, at) + emoji[0];
      from = at + emoji[0].length;
    }
  }
  return out + show(from, text.length);
}

function codePoint(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/**
 * What one character that a terminal would act on, or that draws nothing, is shown as: a C0
 * control its control picture (U+2400 + its code: `␛`, `␇`, `␍`), DEL `␡`, a C1 control, a bidi
 * override or a character that draws nothing its code point (`⟨U+009B⟩`, `⟨U+202E⟩`,
 * `⟨U+200B⟩`); null for any other character, newline and tab included (the caller lays those
 * out). Context-free: `visibleControls` keeps the parts of a whole emoji. The one table every
 * view that shows foreign text uses.
 */
export function visibleCharacter(char: string): string | null {
  const code = char.charCodeAt(0);
  if (char === '\n' || char === '\t') return null;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  if ((code >= 0x80 && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069))
    return codePoint(char);
  if (HIDDEN.test(char)) return codePoint(char);
  return null;
}

function shown(char: string, next: string | undefined): string {
  if (char === '\r' && next === '\n') return char;
  return visibleCharacter(char) ?? char;
}

/** `text` from `from` to `to` with what `pattern` matches shown (CR looks one past `to`). */
function showIn(text: string, from: number, to: number, pattern: RegExp): string {
  const part = text.slice(from, to);
  return part.replace(pattern, (char, offset: number) => shown(char, text[from + offset + char.length]));
}

/**
 * `text` with every character a terminal would act on, and every character that draws nothing,
 * shown instead (see the file's comment); the hidden parts of a whole emoji stay, so 👨‍👩‍👧 and
 * ❤️ draw as they are.
 */
export function visibleControls(text: string): string {
  if (!ACTS.test(text)) return text;
  if (!EMOJI_PARTS.test(text)) return showIn(text, 0, text.length, ACTS_ALL);
  return outsideEmoji(text, (from, to) => showIn(text, from, to, ACTS_ALL));
}

/**
 * Only what a terminal acts on (controls, DEL, C1, bidi overrides), hidden characters left as
 * they are: for the screen's last pass over what it draws, which has laid its lines out already
 * (and left out emoji parts terminals disagree on: a hidden character named there would change a
 * width it measured). Text from outside reaches the screen through `visibleControls` first.
 */
export function visibleActingControls(text: string): string {
  if (!CONTROLS.test(text)) return text;
  return showIn(text, 0, text.length, CONTROLS_ALL);
}

/** Could the text after the last character still join it into one emoji (or a CRLF)? */
const MAY_GROW =
  /(?:\r|\u20e3|\u200d|\ufe0e|\ufe0f|[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}0-9#*\u{e0020}-\u{e007f}])$/u;

let segmenter: Intl.Segmenter | undefined;

/** Where the last grapheme of `text` begins (only its tail is looked at: no emoji is that long). */
function lastGraphemeStart(text: string): number {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const from = Math.max(0, text.length - 64);
  let start = from;
  for (const { index } of segmenter.segment(text.slice(from))) start = from + index;
  return start;
}

/**
 * The same for text that arrives in pieces (a streamed reply written as it comes): the last
 * grapheme of a piece is held while what comes next could still join it (a CR that may begin
 * CRLF, an emoji a joiner or selector may go on), and shown with the next piece or at `end`.
 * Every other character is replaced on its own, so a sequence split across pieces is shown like
 * a whole one.
 */
export class VisibleControlsStream {
  private held = '';

  /** The piece made visible; a last grapheme that may still grow waits for the next piece (or `end`). */
  push(piece: string): string {
    let text = this.held + piece;
    this.held = '';
    if (MAY_GROW.test(text)) {
      const at = text.endsWith('\r') ? text.length - 1 : lastGraphemeStart(text);
      this.held = text.slice(at);
      text = text.slice(0, at);
    }
    return visibleControls(text);
  }

  /** What is still held, shown. */
  end(): string {
    const out = visibleControls(this.held);
    this.held = '';
    return out;
  }
}

/** What JSON.stringify leaves raw that a terminal may act on: DEL, C1 controls, bidi overrides. */
const JSON_RAW_ACTS = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const JSON_RAW_HIDDEN = new RegExp(`[${HIDDEN_CLASS}]`, 'gu');

function escaped(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** `json` with the characters that draw nothing escaped, those inside a whole emoji aside. */
function hiddenEscaped(json: string): string {
  if (!HIDDEN.test(json)) return json;
  if (!EMOJI_PARTS.test(json)) return json.replace(JSON_RAW_HIDDEN, escaped);
  return outsideEmoji(json, (from, to) => json.slice(from, to).replace(JSON_RAW_HIDDEN, escaped));
}

/**
 * `value` as one line of JSON that is safe on a terminal: JSON.stringify escapes C0 controls
 * (ESC among them) but leaves DEL, C1 controls, bidi overrides and the characters that draw
 * nothing as they are; these are escaped too (`\u009b`, `\u200b`; a whole emoji keeps its
 * joiners and selectors), which any JSON reader reads back as the same text.
 */
export function terminalSafeJson(value: unknown): string {
  return hiddenEscaped(JSON.stringify(value).replace(JSON_RAW_ACTS, escaped));
}
