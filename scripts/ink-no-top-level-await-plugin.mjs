// esbuild plugin for the CommonJS script of the full-screen session (dist/screen.cjs): Ink's
// reconciler awaits, at its top level, its React devtools bridge and its package.json, both only
// when DEV=true. A CommonJS script cannot hold a top-level await, and tole's builds leave the
// devtools bridge out anyway (ink-output-plugin), so both are dropped. The build fails if either
// line moved; esbuild itself refuses any other top-level await in a CommonJS script.
import { readFile } from 'node:fs/promises';

const reconciler = /[\\/]ink[\\/]build[\\/]reconciler\.js$/;
const AWAITS = [
  ["await import('./devtools.js');", 'void 0;'],
  ['? await loadPackageJson()', '? { name: undefined, version: undefined }'],
];

export const inkNoTopLevelAwaitPlugin = {
  name: 'ink-no-top-level-await',
  setup(build) {
    build.onLoad({ filter: reconciler }, async (args) => {
      let source = await readFile(args.path, 'utf8');
      for (const [line, replacement] of AWAITS) {
        if (source.split(line).length !== 2)
          return { errors: [{ text: `ink-no-top-level-await: expected "${line}" once in Ink's reconciler` }] };
        source = source.replace(line, replacement);
      }
      return { contents: source, loader: 'js' };
    });
  },
};
