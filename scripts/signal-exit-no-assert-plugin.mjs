// esbuild plugin for dist/screen.cjs: signal-exit (Ink's, v3) requires Node's `assert` when it
// loads (~2.5 ms, with its error classes) for one `assert.equal(typeof cb, 'function', ...)` at
// each handler registration, before the first frame. Here `assert` is required only when that
// check fails, and then does the same check, so the error thrown is the same. The build fails if
// the line moved.
import { readFile } from 'node:fs/promises';

const signalExitIndex = /[\\/]node_modules[\\/]signal-exit[\\/]index\.js$/;
const EAGER = "var assert = require('assert')";
const ON_FAILURE =
  "var assert = { equal: function (actual, expected, message) { if (actual != expected) require('assert').equal(actual, expected, message) } }";

export const signalExitNoAssertPlugin = {
  name: 'signal-exit-no-assert',
  setup(build) {
    let patched = false;
    build.onLoad({ filter: signalExitIndex }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (source.split(EAGER).length !== 2)
        return { errors: [{ text: `signal-exit-no-assert: expected "${EAGER}" once in ${args.path}` }] };
      patched = true;
      return { contents: source.replace(EAGER, ON_FAILURE), loader: 'js' };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && !patched)
        result.errors.push({ text: 'signal-exit-no-assert: no signal-exit was bundled' });
    });
  },
};
