/**
 * Ink sanitizes every text node's text on every frame; the bundle swaps in tole's sanitizer
 * (src/tui/ink-sanitize-ansi.ts), which returns text with only colour codes as it is. It must give
 * Ink's answer for any text, and the bundle must really use it.
 */
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { build } from 'esbuild';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import inkSanitizeAnsi from '../../node_modules/ink/build/sanitize-ansi.js';
// @ts-expect-error a plain .mjs build helper without types
import { inkOutputPlugin } from '../../scripts/ink-output-plugin.mjs';
import sanitizeAnsi, { onlySgr } from '../../src/tui/ink-sanitize-ansi';
import { REPO_ROOT } from '../support/spawn-node';

const colour = new Chalk({ level: 3 });

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
];

describe("tole's sanitizer for Ink's text nodes", () => {
  it("gives Ink's sanitizer's answer for any text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PARTS), { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(sanitizeAnsi(text)).toBe(inkSanitizeAnsi(text));
      }),
      { numRuns: 3000 },
    );
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
    expect(bundle).toContain(join('src', 'tui', 'ink-sanitize-ansi.ts'));
    expect(bundle).toContain('onlySgr(');
  });
});
