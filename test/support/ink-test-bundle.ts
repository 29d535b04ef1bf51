/**
 * A small screen program bundled with Ink, React and Yoga by esbuild (with the build-time edits
 * of Ink given as plugins, or none for stock Ink) and imported. The tests that compare what tole's
 * Ink draws with what stock Ink draws build both screens with it. The bundle lives outside the
 * repository, where no package resolves, so everything is bundled in.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { REPO_ROOT } from './repo-root';

/** Bundles `source` (an ES module that imports `ink`) into `dir`/`name`.mjs and imports it. */
export async function importInkBundle<T>(dir: string, name: string, source: string, plugins: unknown[]): Promise<T> {
  const outfile = join(dir, `${name}.mjs`);
  writeFileSync(join(dir, 'empty.js'), 'export default {};\n');
  await build({
    stdin: { contents: source, resolveDir: REPO_ROOT, loader: 'js' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    alias: { 'react-devtools-core': join(dir, 'empty.js') },
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    plugins: plugins as never[],
    logLevel: 'silent',
  });
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  // Ink decides when it loads whether it runs in CI (and then draws nothing until unmount): the
  // bundle is imported as it would be outside CI, so a test draws the same frames in both.
  const hidden = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  try {
    return (await import(pathToFileURL(outfile).href)) as T;
  } finally {
    for (const [key, value] of Object.entries(hidden)) if (value !== undefined) process.env[key] = value;
  }
}
