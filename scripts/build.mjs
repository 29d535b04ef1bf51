// Bundles tole into one ESM file that starts fast (dist/tole.js).
import { build } from 'esbuild';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { inkOutputPlugin } from './ink-output-plugin.mjs';

mkdirSync('dist', { recursive: true });
writeFileSync('dist/empty.js', 'export default {};\n');
await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/tole.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  alias: { 'react-devtools-core': './dist/empty.js' },
  plugins: [inkOutputPlugin],
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
chmodSync('dist/tole.js', 0o755);
