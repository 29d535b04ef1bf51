/**
 * `Intl.Segmenter` as the screen's script sees it (scripts/segmenter-inject.mjs puts this class
 * in place of every `Intl.Segmenter` the build bundles: Ink, string-width, slice-ansi,
 * ansi-tokenize, tole's own code). The libraries make their segmenters when they load, and the
 * first segmenter of a process loads ICU's break rules: ~12-15 ms of every start, before the
 * first frame, although that frame segments only SGR codes (ASCII). Here the real segmenter is
 * made on the first text that needs one, and text of ASCII characters other than a carriage
 * return is split by grapheme here: each such character is a grapheme of its own (Unicode's
 * grapheme rules join two ASCII characters only for CR LF), which is what ICU answers
 * (test/tui/segmenter-on-use-segments-as-icu.test.ts compares the two).
 */

/** ASCII without a carriage return: every character is a grapheme of its own. */
const ONE_GRAPHEME_EACH = /^[\0-\x0c\x0e-\x7f]*$/;

/** The real constructor, read by index so that the build's replacement of `Intl.Segmenter` skips it. */
const IcuSegmenter: typeof Intl.Segmenter = Intl['Segmenter'];

type SegmenterOptions = ConstructorParameters<typeof Intl.Segmenter>[1];
type Locales = ConstructorParameters<typeof Intl.Segmenter>[0];

export class SegmenterOnUse {
  static supportedLocalesOf(locales: Locales, options?: Intl.SegmenterOptions): string[] {
    return IcuSegmenter.supportedLocalesOf(locales ?? [], options);
  }

  readonly #locales: Locales;
  readonly #options: SegmenterOptions;
  readonly #graphemes: boolean;
  #icu: Intl.Segmenter | undefined;

  constructor(locales?: Locales, options?: SegmenterOptions) {
    const granularity = options?.granularity ?? 'grapheme';
    // A granularity the real constructor refuses is refused at once here too; other bad options
    // (a locale tag, localeMatcher) are found when the real one is first made.
    if (granularity !== 'grapheme' && granularity !== 'word' && granularity !== 'sentence')
      throw new RangeError(`Value ${String(granularity)} out of range for Intl.Segmenter options property granularity`);
    this.#locales = locales;
    this.#options = options;
    this.#graphemes = granularity === 'grapheme';
  }

  /** The real segmenter, made the first time one is needed. */
  #real(): Intl.Segmenter {
    this.#icu ??= new IcuSegmenter(this.#locales, this.#options);
    return this.#icu;
  }

  segment(input: string): Intl.Segments {
    const text = String(input);
    if (this.#graphemes && ONE_GRAPHEME_EACH.test(text)) return oneGraphemeEach(text);
    return this.#real().segment(text);
  }

  resolvedOptions(): Intl.ResolvedSegmenterOptions {
    return this.#real().resolvedOptions();
  }
}

/** Segments of `input` where each character is a grapheme, as ICU's grapheme Segments gives them. */
function oneGraphemeEach(input: string): Intl.Segments {
  const at = (index: number): Intl.SegmentData => ({ segment: input[index]!, index, input });
  return {
    containing(codeUnitIndex = 0) {
      const index = Math.trunc(Number(codeUnitIndex)) || 0;
      return index >= 0 && index < input.length ? at(index) : undefined;
    },
    *[Symbol.iterator]() {
      for (let index = 0; index < input.length; index++) yield at(index);
    },
  } as Intl.Segments;
}
