/**
 * The one terminal sanitizer: every sequence a hostile model, tool output, file or config could
 * put in front of the terminal is shown, never acted on, whole or split across stream chunks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalSafeJson, visibleControls, VisibleControlsStream } from '../../src/core/terminal-text';
import { fcRuns } from '../support/fc-runs';

/** What a terminal acts on, CRLF aside: nothing of it may be left in what is shown. */
const ACTS = /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

/** Each hostile sequence, with what the user sees in its place. */
const CORPUS: ReadonlyArray<readonly [string, string, string]> = [
  ['OSC 52 clipboard (BEL)', '\u001b]52;c;ZWNobyBwd25lZA==\u0007', '␛]52;c;ZWNobyBwd25lZA==␇'],
  ['OSC 52 clipboard (ST)', '\u001b]52;c;eA==\u001b\\', '␛]52;c;eA==␛\\'],
  ['OSC 0 title', '\u001b]0;you have been pwned\u0007', '␛]0;you have been pwned␇'],
  ['OSC 2 title', '\u001b]2;title\u001b\\', '␛]2;title␛\\'],
  [
    'OSC 8 link',
    '\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\',
    '␛]8;;https://evil.example/␛\\click␛]8;;␛\\',
  ],
  ['OSC 9 notify', '\u001b]9;look here\u0007', '␛]9;look here␇'],
  ['OSC 1337 (iTerm2)', '\u001b]1337;File=inline=1:AAAA\u0007', '␛]1337;File=inline=1:AAAA␇'],
  ['DCS', '\u001bP+q544e\u001b\\', '␛P+q544e␛\\'],
  ['APC', '\u001b_Gf=100;AAAA\u001b\\', '␛_Gf=100;AAAA␛\\'],
  ['PM', '\u001b^private\u001b\\', '␛^private␛\\'],
  ['SOS', '\u001bXstring\u001b\\', '␛Xstring␛\\'],
  ['CSI SGR (colour)', '\u001b[31mred\u001b[0m', '␛[31mred␛[0m'],
  ['CSI SGR conceal', '\u001b[8mhidden', '␛[8mhidden'],
  ['CSI clear screen', '\u001b[2J\u001b[H', '␛[2J␛[H'],
  ['CSI cursor up and erase line', 'ok\u001b[1A\u001b[2K', 'ok␛[1A␛[2K'],
  ['CSI private mode (alt screen off)', '\u001b[?1049l', '␛[?1049l'],
  ['CSI window report', '\u001b[21t', '␛[21t'],
  ['bare ESC', 'a\u001bb', 'a␛b'],
  ['ESC c (reset)', '\u001bc', '␛c'],
  ['C1 CSI', '\u009b31m', '⟨U+009B⟩31m'],
  ['C1 OSC with ST', '\u009d52;c;eA==\u009c', '⟨U+009D⟩52;c;eA==⟨U+009C⟩'],
  ['C1 NEL', 'a\u0085b', 'a⟨U+0085⟩b'],
  ['C1 DCS, APC, PM, SOS', '\u0090\u009f\u009e\u0098', '⟨U+0090⟩⟨U+009F⟩⟨U+009E⟩⟨U+0098⟩'],
  ['BEL', 'ding\u0007', 'ding␇'],
  ['BS over text', 'rm -rf /\b\b\b\b\b\b\bls', 'rm -rf /␈␈␈␈␈␈␈ls'],
  ['CR overwriting a line', 'safe\rEVIL', 'safe␍EVIL'],
  ['CRLF stays', 'one\r\ntwo', 'one\r\ntwo'],
  ['DEL', 'a\u007fb', 'a␡b'],
  ['NUL and SI/SO', '\u0000\u000e\u000f', '␀␎␏'],
  ['vertical tab and form feed', '\u000b\u000c', '␋␌'],
  ['bidi override (RLO) in a file name', 'invoice\u202egpj.exe', 'invoice⟨U+202E⟩gpj.exe'],
  [
    'bidi embeddings and isolates',
    '\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069',
    '⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩',
  ],
];

describe('visibleControls', () => {
  it.each(CORPUS)('shows %s', (_name, hostile, shown) => {
    const out = visibleControls(hostile);
    expect(out).toBe(shown);
    expect(out).not.toMatch(ACTS);
  });

  it('leaves text with nothing to act on as it is: newlines, tabs, wide and combining characters', () => {
    for (const text of ['plain', 'two\nlines\twith a tab', '宽 👍🏽 é (e\u0301)', 'arrows ← → and ␛ itself', ''])
      expect(visibleControls(text)).toBe(text);
  });

  it('C1 controls written as UTF-8 bytes are shown once decoded', () => {
    const bytes = Buffer.from([0x61, 0xc2, 0x9b, 0x33, 0x31, 0x6d, 0xc2, 0x9d, 0x30, 0x3b, 0x74, 0x07]);
    expect(visibleControls(bytes.toString('utf8'))).toBe('a⟨U+009B⟩31m⟨U+009D⟩0;t␇');
  });

  it('a stream cut anywhere shows the same as the whole, and nothing it shows acts', () => {
    const parts = fc.constantFrom(...CORPUS.map(([, hostile]) => hostile), 'text ', '\r', '\n', '\r\n', '宽');
    fc.assert(
      fc.property(fc.array(parts, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 6 }), (pieces, cuts) => {
        const whole = pieces.join('');
        const at = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
        const stream = new VisibleControlsStream();
        let shown = '';
        let from = 0;
        for (const cut of [...at, whole.length]) {
          const piece = stream.push(whole.slice(from, cut));
          // A cut piece acts on nothing on its own either: a CR waits, every ESC is already shown.
          expect(piece).not.toMatch(ACTS);
          shown += piece;
          from = cut;
        }
        shown += stream.end();
        expect(shown).toBe(visibleControls(whole));
        expect(shown).not.toMatch(ACTS);
      }),
      { numRuns: fcRuns() },
    );
  });

  it('a CR that ends one piece and a LF that starts the next are kept as CRLF', () => {
    const stream = new VisibleControlsStream();
    expect(stream.push('line\r')).toBe('line');
    expect(stream.push('\nnext\r')).toBe('\r\nnext');
    expect(stream.end()).toBe('␍');
  });
});

describe('terminalSafeJson', () => {
  it('escapes what JSON.stringify leaves raw (DEL, C1, bidi) and reads back as the same value', () => {
    for (const [, hostile] of CORPUS) {
      const value = { type: 'text', text: hostile };
      const line = terminalSafeJson(value);
      expect(line).not.toMatch(ACTS);
      expect(JSON.parse(line)).toEqual(value);
    }
    expect(JSON.stringify('\u009b')).toBe('"\u009b"');
    expect(terminalSafeJson('\u009b\u202e\u007f')).toBe('"\\u009b\\u202e\\u007f"');
  });
});
