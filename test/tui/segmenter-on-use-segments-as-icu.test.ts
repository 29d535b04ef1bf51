/**
 * The screen's script uses SegmenterOnUse wherever its code and libraries say `Intl.Segmenter`
 * (scripts/segmenter-inject.mjs): it must split every text into the graphemes, words and
 * sentences ICU's segmenter gives, whether it answers itself (ASCII without a carriage return)
 * or hands the text to ICU.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SegmenterOnUse } from '../../src/tui/text/segmenter-on-use';
import { fcRuns } from '../support/fc-runs';

const icu = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const ours = new SegmenterOnUse(undefined, { granularity: 'grapheme' });

function segmentsOf(segments: Intl.Segments): Intl.SegmentData[] {
  return [...segments].map((data) => ({ ...data }));
}

/** Text built from ASCII (CR and LF included), SGR codes, marks, emoji and CJK: both paths. */
const text = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
      fc.constantFrom(
        '\r\n',
        '\r',
        '\n',
        '\x1b[31m',
        '\x1b[1;38;5;12m',
        '\x1b[0m',
        'é',
        'e\u0301',
        '👍🏽',
        '🇳🇱',
        '世',
        '\u200d',
      ),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('SegmenterOnUse', () => {
  it('gives the graphemes ICU gives, with their index and input, for any text', () => {
    fc.assert(
      fc.property(text, (input) => {
        expect(segmentsOf(ours.segment(input))).toEqual(segmentsOf(icu.segment(input)));
      }),
      { numRuns: fcRuns() },
    );
  });

  it('answers containing() as ICU does, in and out of range', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: -3, max: 35 }), (input, at) => {
        const mine = ours.segment(input).containing(at);
        const theirs = icu.segment(input).containing(at);
        expect(mine === undefined ? undefined : { ...mine }).toEqual(theirs === undefined ? undefined : { ...theirs });
      }),
    );
    expect({ ...ours.segment('ab').containing() }).toEqual({ ...icu.segment('ab').containing() });
  });

  it('splits every ASCII character but CR LF into graphemes of one character each, without ICU', () => {
    const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('');
    expect(segmentsOf(ours.segment(ascii))).toEqual(segmentsOf(icu.segment(ascii)));
    expect([...ours.segment('a\r\nb')].map((s) => s.segment)).toEqual(['a', '\r\n', 'b']);
  });

  it('hands words and sentences to ICU, and its default is graphemes', () => {
    const input = 'The plan. It ships, soon!';
    for (const granularity of ['word', 'sentence'] as const)
      expect(segmentsOf(new SegmenterOnUse('en', { granularity }).segment(input))).toEqual(
        segmentsOf(new Intl.Segmenter('en', { granularity }).segment(input)),
      );
    expect(new SegmenterOnUse().resolvedOptions().granularity).toBe('grapheme');
    expect(segmentsOf(new SegmenterOnUse().segment('ab👍🏽'))).toEqual(segmentsOf(icu.segment('ab👍🏽')));
    expect(() => new SegmenterOnUse(undefined, { granularity: 'letter' as 'word' })).toThrow(RangeError);
  });
});
