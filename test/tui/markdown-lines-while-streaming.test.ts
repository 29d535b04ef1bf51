import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clearMarkdownMemo, markdownLines } from '../../src/tui/text/markdown-lines';
import { fcRuns } from '../support/fc-runs';

const PIECES = [
  'word ',
  'longer words here ',
  '\n',
  '\n\n',
  '- item ',
  '1. first ',
  '> quote ',
  '# Heading\n',
  '\n```ts\n',
  '\n```\n',
  '\n~~~\n',
  '**bold** ',
  '`code` ',
  '[link](http://x.y) ',
  'ünï ✓ 宽 ',
  '\t',
  '   ',
  '\n| a | b |\n',
  '|---|:-:|\n',
  '| x \\| y | 宽 ✓ |',
  '| long cell text here ',
  ' | ',
  '\n|:--|--:|\n',
];

describe('markdown laid out as a reply streams in', () => {
  it('gives the lines a fresh layout of the whole text gives, at every step', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { minLength: 60, maxLength: 400, size: 'max' }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 8, max: 80 }),
        (pieces, cuts, width) => {
          const text = pieces.join('');
          const steps = [...new Set(cuts.map((c) => c % (text.length + 1))), text.length].sort((a, b) => a - b);
          clearMarkdownMemo();
          for (const end of steps) {
            const shown = markdownLines(text.slice(0, end), width);
            // An entry laid out between two frames does not disturb the stream.
            markdownLines(pieces.slice(0, 3).join(''), width);
            const remembered = JSON.stringify(shown);
            clearMarkdownMemo();
            expect(remembered).toBe(JSON.stringify(markdownLines(text.slice(0, end), width)));
            markdownLines(text.slice(0, end), width);
          }
        },
      ),
      { numRuns: fcRuns() },
    );
  });
});
