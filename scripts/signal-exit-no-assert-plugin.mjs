// esbuild plugin for dist/screen.cjs: signal-exit (Ink's, v3) requires Node's `assert` when it
// loads (~2.5 ms, with its error classes) for one `assert.equal(typeof cb, 'function', ...)` at
// each handler registration, before the first frame. Here `assert` is required only when that
// check fails, and then does the same check, so the error thrown is the same. The build fails if
// the line moved.
import { oneLinePatchPlugin } from './one-line-patch.mjs';

export const signalExitNoAssertPlugin = oneLinePatchPlugin({
  name: 'signal-exit-no-assert',
  filter: /[\\/]node_modules[\\/]signal-exit[\\/]index\.js$/,
  from: "var assert = require('assert')",
  to: "var assert = { equal: function (actual, expected, message) { if (actual != expected) require('assert').equal(actual, expected, message) } }",
  missing: 'no signal-exit was bundled',
});
