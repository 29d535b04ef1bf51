/**
 * The Ink version tole's renderer was checked against. Several parts lean on Ink's internals, not
 * its API, and a new Ink can break them silently:
 * - `scripts/ink-output-plugin.mjs` swaps Ink's `build/output.js` for `src/tui/frame/ink-output.ts`
 *   (which must make the same frames: `test/tui/ink-output-matches-ink.test.ts`), swaps its
 *   `widest-line` for `src/tui/text/text-width.ts`, and stubs its `devtools.js`,
 *   and edits its `build/dom.js` so that a text node is marked dirty for Yoga only when its size
 *   changed (`src/tui/frame/ink-text-dirty.ts`, which hooks Yoga's `Node.prototype.calculateLayout`;
 *   `test/tui/text-layout-kept-while-its-size-is.test.ts` checks the frames against Ink's),
 *   and so that every change to a node is noted for the walk kept between frames, whose
 *   `build/render-node-to-output.js` it wraps and whose text-node write it moves into a function
 *   (`src/tui/frame/ink-kept-walk.ts`; `test/tui/ink-walk-kept-draws-what-ink-draws.test.ts`): a new
 *   Ink that reads anything else of a node in its walk, or sets a node's fields elsewhere than
 *   dom.js's functions and its transform and static fields, must be noted there too;
 * - `src/tui/frame/frame-writer.ts` reads the erase sequences Ink writes before each frame.
 * - `scripts/ink-resize-plugin.mjs` replaces Ink's resize listener (`resized` in `build/ink.js`) with one
 *   that draws nothing and forgets Ink's last output: the frame of the new size is tole's; and calls
 *   Ink's frame write (`throttledLog`, a throttle of no wait: at once, plus an idle timer) directly
 *   (`test/tui/ink-writes-each-frame-without-a-timer.test.ts`).
 * - `src/tui/frame/PacedFrames.tsx` replaces the root node's `onRender` (Ink's throttled draw after a
 *   commit) with tole's pacer over `onImmediateRender` (the draw itself); it throws if they moved.
 * Upgrading Ink means re-reading those Ink files against these, then changing this constant.
 */
export const INK_CHECKED_VERSION = '6.8.0';
