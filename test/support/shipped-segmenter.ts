/**
 * The screen tier's set-up: every `Intl.Segmenter` is src/tui/text/segmenter-on-use.ts's class, as
 * scripts/segmenter-inject.mjs makes it in the shipped script (dist/screen.cjs).
 */
import { SegmenterOnUse } from '../../src/tui/text/segmenter-on-use';

Object.defineProperty(Intl, 'Segmenter', { value: SegmenterOnUse, writable: true, configurable: true });
