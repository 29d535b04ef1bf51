// Injected into dist/screen.cjs (scripts/build.mjs): every `Intl.Segmenter` the script reads,
// in tole's code and in the libraries it bundles, is src/tui/text/segmenter-on-use.ts's class, which
// loads ICU's break rules only when a text needs them.
import { SegmenterOnUse } from '../src/tui/text/segmenter-on-use.ts';

export { SegmenterOnUse as 'Intl.Segmenter' };
