// Bundles tole into ESM files that start fast: dist/tole.js holds what every start runs, and
// what only some paths need (the provider client, MCP, sync, the commands) sits in chunks under
// dist/chunks/, loaded by import() when first used. Chunks of an earlier build are removed.
// The full-screen session is one CommonJS script, dist/screen.cjs, which dist/tole.js compiles
// with tole's code cache (src/cli/screen-loader.ts): Node 20 caches no compiled ES modules.
// Within it too, what the first frame does not need is evaluated on first use, and the big
// libraries only used after the first frame (the provider client, zod, MCP, ...) are in a second
// script, dist/later.cjs, loaded (with its own code cache) on their first import. `tole -p` is
// one CommonJS script too, dist/headless.cjs, compiled with its own code cache
// (src/cli/headless-loader.ts).
import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { lazyBuiltins } from './lazy-builtins.mjs';
import { OPTIONAL_PATCHES, RENDERER_PATCHES } from './renderer-patches.mjs';
import { LATER_PACKAGES, laterEntry, laterModulesPlugin } from './later-modules-plugin.mjs';
import { shareInteropNamespaces } from './shared-namespaces.mjs';
import { signalExitNoAssertPlugin } from './signal-exit-no-assert-plugin.mjs';
import { YOGA_DECLARED_PAGES, yogaSyncPluginWith } from './yoga-sync-plugin.mjs';
import { zodOnUsePlugin } from './zod-on-use-plugin.mjs';

/** What src/cli/screen-loader.ts passes the screen's script. */
const SCREEN_PARAMETERS = 'exports, require, module, __filename, __dirname, TOLE_IMPORT_META_URL';
/** The second script (src/cli/later-modules.ts). */
const LATER_SCRIPT = 'later.cjs';
/**
 * `tole -p`'s script (src/cli/headless-loader.ts): everything the command runs, in one script
 * with one cache, as the ES chunks held it (none of the screen's patches, no later.cjs: a turn
 * uses the provider's client and zod anyway). Its name does not start with `screen-` (see
 * src/cli/later-modules.ts).
 */
const HEADLESS_SCRIPT = 'headless.cjs';

/**
 * Where the build goes: dist/, unless TOLE_DIST names another folder (the bench of the patches,
 * bench/build-patches.ts, builds beside it). TOLE_BUILD_WITHOUT names patches to leave out, by
 * name, comma-separated: only that bench does, to measure what each pays.
 */
const DIST = process.env.TOLE_DIST ?? 'dist';
const WITHOUT = new Set((process.env.TOLE_BUILD_WITHOUT ?? '').split(',').filter((name) => name !== ''));
for (const name of WITHOUT) {
  if (!OPTIONAL_PATCHES.includes(name))
    throw new Error(
      `TOLE_BUILD_WITHOUT: ${name} is not a patch the build can leave out (${OPTIONAL_PATCHES.join(', ')})`,
    );
}
if (WITHOUT.size > 0) process.stderr.write(`build: without ${[...WITHOUT].join(', ')}, for the bench only\n`);
/** The plugins, but those TOLE_BUILD_WITHOUT leaves out. */
const kept = (plugins) =>
  plugins
    .filter((plugin) => !WITHOUT.has(plugin.name))
    // Without wasm-initial-memory, Yoga's memory starts as its module declares it.
    .map((plugin) =>
      plugin.name === 'yoga-sync' && WITHOUT.has('wasm-initial-memory')
        ? yogaSyncPluginWith(YOGA_DECLARED_PAGES)
        : plugin,
    );
/** A post-build rewrite, unless TOLE_BUILD_WITHOUT leaves it out. */
const unless = (name, rewrite) => (WITHOUT.has(name) ? (source) => source : rewrite);

mkdirSync(DIST, { recursive: true });
writeFileSync(`${DIST}/empty.js`, 'export default {};\n');
const shared = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  alias: { 'react-devtools-core': `./${DIST}/empty.js` },
  // Optional: loaded at run time with createRequire when --storage sqlite asks for it.
  external: ['better-sqlite3'],
  logLevel: 'warning',
};
const result = await build({
  ...shared,
  entryPoints: { tole: 'src/cli/main.ts' },
  outdir: DIST,
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  metafile: true,
  format: 'esm',
  define: {
    'process.env.NODE_ENV': '"production"',
    TOLE_SCREEN_BUNDLE: '"./screen.cjs"',
    TOLE_HEADLESS_BUNDLE: `"./${HEADLESS_SCRIPT}"`,
  },
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __toleCreateRequire } from 'node:module';",
      'const require = __toleCreateRequire(import.meta.url);',
    ].join('\n'),
  },
});
// What the first frame does not need from the big libraries goes into dist/later.cjs.
const later = laterModulesPlugin();
/**
 * One id for this build, in both scripts: dist/later.cjs exports it and the screen's laterModule
 * refuses a later.cjs of another build (tole rebuilt or upgraded while a session ran).
 */
const buildId = randomBytes(8).toString('hex');
/** What both scripts share: each is one function that src/cli/screen-loader.ts calls. */
const script = {
  ...shared,
  format: 'cjs',
  // screen-loader passes the script's own URL in.
  define: {
    'process.env.NODE_ENV': '"production"',
    'import.meta.url': 'TOLE_IMPORT_META_URL',
    TOLE_BUILD_ID: JSON.stringify(buildId),
  },
  // The file is the function screen-loader calls, wrapped here rather than by the loader: a
  // wrapped copy of the source made at each start would be another 4 MB string on the heap.
  banner: { js: `(function (${SCREEN_PARAMETERS}) {` },
  footer: { js: '})' },
};
await build({
  ...script,
  entryPoints: ['src/cli/screen-entry.ts'],
  outfile: `${DIST}/screen.cjs`,
  // Every Intl.Segmenter in the script loads ICU's break rules only when a text needs them.
  inject: WITHOUT.has('segmenter-inject') ? [] : ['scripts/segmenter-inject.mjs'],
  plugins: kept([later.plugin, ...RENDERER_PATCHES, signalExitNoAssertPlugin, zodOnUsePlugin]),
});
// Without later-modules (the bench only), everything is in the screen's script.
if (!WITHOUT.has('later-modules')) {
  await build({
    ...script,
    stdin: {
      contents: laterEntry(later.specifiers, buildId),
      resolveDir: '.',
      sourcefile: 'later-entry.js',
      loader: 'js',
    },
    outfile: `${DIST}/${LATER_SCRIPT}`,
  });
}
await build({
  ...script,
  entryPoints: ['src/cli/headless-entry.ts'],
  outfile: `${DIST}/${HEADLESS_SCRIPT}`,
});
const shareNamespaces = unless('shared-namespaces', shareInteropNamespaces);
writeScript(`${DIST}/screen.cjs`, (source) => unless('lazy-builtins', lazyBuiltins)(shareNamespaces(source)));
if (!WITHOUT.has('later-modules')) writeScript(`${DIST}/${LATER_SCRIPT}`, shareNamespaces);
writeScript(`${DIST}/${HEADLESS_SCRIPT}`, shareNamespaces);
for (const name of WITHOUT.has('later-modules') ? [] : LATER_PACKAGES) {
  if (readFileSync(`${DIST}/screen.cjs`, 'latin1').includes(`\n// node_modules/${name}/`))
    throw new Error(`later-modules: ${name} was bundled into ${DIST}/screen.cjs too`);
}

/**
 * Rewrites a script of the screen as `transform` says, in ASCII. The loader decodes it as Latin-1
 * (a copy, where UTF-8 is decoded character by character: ~20 ms for 4 MB). esbuild writes code
 * in ASCII and leaves non-ASCII only in the comments it keeps; those are escaped too, and the
 * build fails if any other byte remains.
 */
function writeScript(file, transform) {
  const source = transform(readFileSync(file, 'utf8')).replace(
    /[^\0-\x7f]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (!/^[\0-\x7f]*$/.test(source)) throw new Error(`${file} is not ASCII after escaping`);
  writeFileSync(file, source);
}
const written = new Set(Object.keys(result.metafile.outputs).map((path) => basename(path)));
for (const name of existsSync(`${DIST}/chunks`) ? readdirSync(`${DIST}/chunks`) : []) {
  if (!written.has(name)) rmSync(`${DIST}/chunks/${name}`);
}
chmodSync(`${DIST}/tole.js`, 0o755);
