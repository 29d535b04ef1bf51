// esbuild plugin for the full-screen session's script (dist/screen.cjs): the libraries that
// only run after the first frame (LATER_PACKAGES) are not bundled into it. Each import of one
// becomes a module whose body is `laterModule(specifier)` (src/cli/later-modules.ts), evaluated
// when the module importing it is first evaluated; the second build (scripts/build.mjs) bundles
// every specifier asked for here into dist/later.cjs, whose exports map each specifier to
// a function that requires it. A library sits in one script only, so there is one copy of each.
import { resolve } from 'node:path';

/** Packages loaded from dist/later.cjs (with what they import). */
export const LATER_PACKAGES = [
  'openai',
  'zod',
  '@modelcontextprotocol/sdk',
  're2js',
  'pg',
  'eventsource-parser',
  'gpt-tokenizer',
];

const LATER_MODULES = resolve('src/cli/later-modules.ts');
const NAMESPACE = 'tole-later';

function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The plugin, and the specifiers it has seen (filled while the build runs). */
export function laterModulesPlugin() {
  const specifiers = new Set();
  const plugin = {
    name: 'later-modules',
    setup(build) {
      build.onResolve({ filter: /^[@a-z]/ }, (args) => {
        if (args.namespace === NAMESPACE || !LATER_PACKAGES.includes(packageOf(args.path))) return undefined;
        specifiers.add(args.path);
        return { path: args.path, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(LATER_MODULES)}).laterModule(${JSON.stringify(args.path)});\n`,
        loader: 'js',
        resolveDir: resolve('.'),
      }));
    },
  };
  return { plugin, specifiers };
}

/**
 * The key under which dist/later.cjs exports its build's id (src/cli/later-modules.ts checks it);
 * no package specifier has a colon in it.
 */
export const LATER_BUILD_ID_KEY = 'tole:build-id';

/** The entry of dist/later.cjs: each specifier to a function that requires it, and the build's id. */
export function laterEntry(specifiers, buildId) {
  if (specifiers.size === 0) throw new Error('later-modules: no import of a later package was seen');
  const lines = [...specifiers].sort().map((s) => `  ${JSON.stringify(s)}: () => require(${JSON.stringify(s)}),`);
  lines.push(`  ${JSON.stringify(LATER_BUILD_ID_KEY)}: ${JSON.stringify(buildId)},`);
  return `module.exports = {\n${lines.join('\n')}\n};\n`;
}
