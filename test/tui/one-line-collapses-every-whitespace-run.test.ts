import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine } from '../../src/tui/text/format';
import { fcRuns } from '../support/fc-runs';

/** What oneLine means, written the plain way: every run of whitespace is one space, ends trimmed. */
const reference = (text: string): string => text.replace(/\s+/g, ' ').trim();

describe('oneLine', () => {
  it('collapses each run of whitespace (spaces, tabs, line breaks, Unicode spaces) into one space and trims', () => {
    const piece = fc.constantFrom(
      'a',
      'bc',
      ' ',
      '  ',
      '\n',
      '\r\n',
      '\t',
      '\u00a0',
      '\u2028',
      '\u3000',
      '\ufeff',
      'é',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        expect(oneLine(text)).toBe(reference(text));
      }),
      { numRuns: fcRuns() },
    );
    expect(oneLine('  a \t\n b  c\u00a0d ')).toBe('a b c d');
  });
});
