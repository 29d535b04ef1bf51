// esbuild plugin: Ink's own resize listener (ink.js `resized`) no longer draws. On every resize it
// laid the tree out again and drew it at once, before tole's screen had heard of the new size: a
// frame laid out for the old size, then tole's frame for the new one (src/tui/frame/frame-writer.ts,
// `resized`). Now it only makes Ink forget the output it drew last, so that the next frame, the one
// tole's new size commits (src/tui/screen/use-terminal-size.ts), is written whole even where it
// happens to equal the last one (a window dragged back to its size: the terminal may have cut it).
// The build fails if Ink's `resized` is no longer the body this replaces (an Ink upgrade changed it).
import { readFile } from 'node:fs/promises';

const RESIZED = `    resized = () => {
        const currentWidth = this.getTerminalWidth();
        if (currentWidth < this.lastTerminalWidth) {
            // We clear the screen when decreasing terminal width to prevent duplicate overlapping re-renders.
            this.log.clear();
            this.lastOutput = '';
            this.lastOutputToRender = '';
        }
        this.calculateLayout();
        this.onRender();
        this.lastTerminalWidth = currentWidth;
    };`;

const FORGETS = `    resized = () => {
        this.log.clear();
        this.lastOutput = '';
        this.lastOutputToRender = '';
        this.lastTerminalWidth = this.getTerminalWidth();
    };`;

// Ink writes each frame through `throttledLog`, es-toolkit's throttle with no wait given: with a
// wait of 0 (its maxWait too) every call runs the write at once, and then starts a timer of 0 ms
// whose end writes nothing (the call's arguments were taken). tole draws every frame through it, so
// each streamed frame made a timer and woke the event loop once more for nothing: ~190 a reply,
// ~40 ms of CPU making them. Here the write is called directly, as the throttle did; its flush at
// unmount (settleThrottle) had nothing pending, and a function without one is passed over there.
const THROTTLED_LOG = `        this.throttledLog = unthrottled
            ? this.log
            : throttle((output) => {`;
const DIRECT_LOG = `        this.throttledLog = unthrottled
            ? this.log
            : ((write) => write)((output) => {`;

export const inkResizePlugin = {
  name: 'ink-resize',
  setup(build) {
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]ink\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (source.split(RESIZED).length !== 2)
        return {
          errors: [
            {
              text: `ink-resize: Ink's resized listener in ${args.path} is not the one scripts/ink-resize-plugin.mjs replaces; check it against the new Ink`,
            },
          ],
        };
      if (source.split(THROTTLED_LOG).length !== 2)
        return {
          errors: [
            {
              text: `ink-resize: Ink's throttledLog in ${args.path} is not the one scripts/ink-resize-plugin.mjs calls directly; check it against the new Ink`,
            },
          ],
        };
      return {
        contents: source.replace(RESIZED, FORGETS).replace(THROTTLED_LOG, () => DIRECT_LOG),
        loader: 'js',
      };
    });
  },
};
