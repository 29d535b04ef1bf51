/**
 * Ink sanitizes every text node's text on every frame; the bundle swaps in tole's sanitizer
 * (src/tui/frame/ink-sanitize-ansi.ts), which returns text with only colour codes as it is. Where Ink
 * would pass an OSC sequence on (clipboard, title, links) or silently drop a control, tole's shows
 * it: after it, nothing but well-formed SGR acts. Text Ink keeps whole, tole's keeps the same.
 * The bundle must really use it.
 */
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { build } from 'esbuild';
import fc from 'fast-check';
import { drawnEmoji } from '../../src/tui/text/drawn-emoji';
import { describe, expect, it } from 'vitest';
import inkSanitizeAnsi from '../../node_modules/ink/build/sanitize-ansi.js';
// @ts-expect-error a plain .mjs build helper without types
import { inkOutputPlugin } from '../../scripts/ink-output-plugin.mjs';
import sanitizeAnsi, { onlySgr } from '../../src/tui/frame/ink-sanitize-ansi';
import { REPO_ROOT } from '../support/repo-root';
import { fcRuns } from '../support/fc-runs';

const colour = new Chalk({ level: 3 });

/** A well-formed SGR sequence: the one kind of escape let through. */
const SGR = /\u001b\[[0-9:;]*m/g;
/** What a terminal acts on (CRLF aside). */
const ACTS = /[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

const PARTS = [
  'plain',
  ' ',
  '\n',
  '│ pane ─',
  '宽',
  '👍🏽',
  '\u001b[1m',
  '\u001b[22m',
  '\u001b[m',
  '\u001b[38;5;208m',
  '\u001b[48;2;1;2;3m',
  '\u001b[38:2::1:2:3m',
  '\u001b[0;1;4m',
  // Not SGR, or not well formed: Ink drops or keeps these its own way.
  '\u001b[?25m',
  '\u001b[2J',
  '\u001b[1A',
  '\u001b[ m',
  '\u001b[1',
  '\u001b[',
  '\u001b',
  '\u001bc',
  '\u001b(B',
  '\u001b]8;;http://x\u0007',
  '\u001b]8;;\u001b\\',
  '\u009b1m',
  '\u0085',
  '\u009d0;t\u009c',
  '\u0007',
  '\t',
  '\r',
  '\r\n',
  '\u202e',
  '\u001b]52;c;eA==\u0007',
];

describe("tole's sanitizer for Ink's text nodes", () => {
  it('leaves only well-formed SGR to act, for any text, and keeps plain text and colours whole', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PARTS), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        const out = sanitizeAnsi(text);
        expect(out.replace(SGR, '')).not.toMatch(ACTS);
        // Plain text and colours (what tole's panes hold) come back as they are, as from Ink's,
        // but for the emoji parts terminals draw at other widths (text/drawn-emoji.ts): 👍🏽 as 👍.
        if (!ACTS.test(text.replace(SGR, '')) && !/\r(?!\n)/.test(text)) {
          expect(out).toBe(drawnEmoji(text));
          expect(out).toBe(drawnEmoji(inkSanitizeAnsi(text)));
        }
      }),
      { numRuns: fcRuns() },
    );
  });

  it('shows the OSC sequences Ink would pass on: clipboard, title, links', () => {
    const hostile = `${colour.red('x')}\u001b]52;c;ZXZpbA==\u0007\u001b]0;title\u0007\u001b]8;;http://x\u001b\\y`;
    expect(inkSanitizeAnsi(hostile)).toContain('\u001b]52;');
    const out = sanitizeAnsi(hostile);
    expect(out).toBe(`${colour.red('x')}␛]52;c;ZXZpbA==␇␛]0;title␇␛]8;;http://x␛\\y`);
  });

  it('takes a coloured pane text as it is, without Ink tokenizing it', () => {
    const pane = [
      colour.bold.cyan('● you'),
      colour.dim('  a question'),
      `${colour.bgRgb(30, 30, 60)(' selected ')}${colour.rgb(200, 100, 0)('tail')}`,
      '│ plain line │',
    ].join('\n');
    expect(onlySgr(pane)).toBe(true);
    expect(sanitizeAnsi(pane)).toBe(pane);
    for (const other of ['\u001b[2J', '\u001b[?25m', 'x\u009b1m', '\u001b]8;;u\u0007', 'end\u001b', '\u001b[1'])
      expect(onlySgr(`a${other}`), JSON.stringify(other)).toBe(false);
  });

  it("is what the bundle's Ink squashes text nodes with", async () => {
    const result = await build({
      stdin: {
        // All of Ink, as tole bundles it: the plugin checks the rest of what it swaps too.
        contents: "export { render } from 'ink';",
        resolveDir: REPO_ROOT,
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      external: ['react', 'yoga-layout', 'react-devtools-core'],
      plugins: [inkOutputPlugin],
      logLevel: 'silent',
    });
    const bundle = result.outputFiles[0]!.text;
    expect(bundle).toContain(join('src', 'tui', 'frame', 'ink-sanitize-ansi.ts'));
    expect(bundle).toContain('onlySgr(');
  });
});

describe('the sanitizer keeps what it made for the last frames', () => {
  it('gives a text the same result the first time, from what it kept, and after what it kept was dropped', () => {
    const texts = Array.from(
      { length: 700 },
      (_, i) => `row ${i} \u001b]52;c;${i}\u0007 \u001b[1mbold\u001b[22m\r${'宽'.repeat(i % 5)}`,
    );
    const first = texts.map((text) => sanitizeAnsi(text));
    // The same strings again (kept for the newest, dropped for the oldest), and equal copies of them.
    const again = texts.map((text) => sanitizeAnsi(text));
    const copies = texts.map((text) => sanitizeAnsi(` ${text}`.slice(1)));
    expect(again).toEqual(first);
    expect(copies).toEqual(first);
    for (const out of first) {
      expect(out).not.toContain('\u001b]');
      expect(out).not.toContain('\r');
      expect(out).toContain('\u001b[1mbold\u001b[22m');
    }
  });
});
