// The patches of Ink, Yoga and string-width that the screen's script (dist/screen.cjs) is built
// with (scripts/build.mjs), in one list that the screen tests load too (test/support/
// shipped-renderer.ts), so that what the tests mount is what ships. The build's other plugins
// touch no drawing: what loads later (later-modules), signal-exit's assert (a CommonJS file the
// tests load as it is) and zod on use.
import { inkNoTopLevelAwaitPlugin } from './ink-no-top-level-await-plugin.mjs';
import { inkOutputPlugin } from './ink-output-plugin.mjs';
import { inkResizePlugin } from './ink-resize-plugin.mjs';
import { stringWidthLazyPlugin } from './string-width-lazy-plugin.mjs';
import { yogaNoFetchPlugin } from './yoga-no-fetch-plugin.mjs';
import { yogaSyncPlugin } from './yoga-sync-plugin.mjs';

export const RENDERER_PATCHES = [
  // Before ink-resize: its onLoad of ink.js only checks (and loads nothing), ink-resize's loads it.
  inkOutputPlugin,
  inkResizePlugin,
  inkNoTopLevelAwaitPlugin,
  yogaSyncPlugin,
  yogaNoFetchPlugin,
  stringWidthLazyPlugin,
];

/**
 * What the build can leave out (TOLE_BUILD_WITHOUT, for bench/build-patches.ts alone, which shows
 * what each pays): every plugin and rewrite of the screen's script but yoga-sync and
 * ink-no-top-level-await, without which a CommonJS script cannot be built at all, and ink-resize,
 * which fixes what a resize draws (its direct frame write is measured drawing, in the same bench).
 * wasm-initial-memory is yoga-sync's smaller start of Yoga's memory: without it, the memory starts
 * as Yoga's module declares it.
 */
export const OPTIONAL_PATCHES = [
  'ink-output',
  'string-width-lazy',
  'signal-exit-no-assert',
  'zod-on-use',
  'yoga-no-fetch',
  'later-modules',
  'segmenter-inject',
  'lazy-builtins',
  'shared-namespaces',
  'wasm-initial-memory',
];
