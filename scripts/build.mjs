// Bundles tole into ESM files that start fast: dist/tole.js holds what every start runs, and
// what only some paths need (the provider client, MCP, sync, the commands) sits in chunks under
// dist/chunks/, loaded by import() when first used. Chunks of an earlier build are removed.
import { build } from 'esbuild';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { inkOutputPlugin } from './ink-output-plugin.mjs';
import { yogaNoFetchPlugin } from './yoga-no-fetch-plugin.mjs';

mkdirSync('dist', { recursive: true });
writeFileSync('dist/empty.js', 'export default {};\n');
const result = await build({
  entryPoints: { tole: 'src/cli/main.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  metafile: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  alias: { 'react-devtools-core': './dist/empty.js' },
  plugins: [inkOutputPlugin, yogaNoFetchPlugin],
  // Optional: loaded at run time with createRequire when --storage sqlite asks for it.
  external: ['better-sqlite3'],
  define: { 'process.env.NODE_ENV': '"production"' },
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __toleCreateRequire } from 'node:module';",
      'const require = __toleCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  logLevel: 'warning',
});
const written = new Set(Object.keys(result.metafile.outputs).map((path) => basename(path)));
for (const name of existsSync('dist/chunks') ? readdirSync('dist/chunks') : []) {
  if (!written.has(name)) rmSync(`dist/chunks/${name}`);
}
chmodSync('dist/tole.js', 0o755);
