/**
 * What the screen tier (vitest.config.ts) needs to mount the renderer dist/screen.cjs ships:
 * the build's patches of Ink, Yoga and string-width (scripts/build.mjs) as one Vite plugin, and
 * the packages vitest must transform (rather than load as they are) for the patches to reach them.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { esbuildPluginsInVite } from '../../scripts/esbuild-plugins-in-vite.mjs';
import { RENDERER_PATCHES } from '../../scripts/renderer-patches.mjs';

/**
 * The patched packages, and every package that imports Ink: one loaded as it is would import a
 * second, stock Ink, whose hooks never hear the screen's input.
 */
export const SHIPPED_RENDERER_PACKAGES = ['ink', 'yoga-layout', 'string-width', 'ink-testing-library'];

/** Set-up files of a tier that draws: tole's Intl.Segmenter first, then Ink loaded as the screen loads it. */
export const SHIPPED_RENDERER_SETUP = ['test/support/shipped-segmenter.ts', 'test/support/ink-as-shipped.ts'];

/**
 * React and its reconciler as the shipped script has them: their production builds (scripts/build.mjs
 * defines process.env.NODE_ENV as "production" in dist/screen.cjs), and JSX compiled to the
 * production `jsx` calls (the production build has no `jsxDEV`). Their development builds, which
 * vitest's "test" picks, run other code (an Error taken for each element's owner stack, checks of
 * every render) at several times the cost. Spread into a drawing tier's project (vitest.config.ts).
 */
export const REACT_AS_SHIPPED = {
  oxc: { jsx: { runtime: 'automatic', development: false } },
  env: { NODE_ENV: 'production' },
} as const;

export const TRANSFORMED = new RegExp(`[\\\\/]node_modules[\\\\/](${SHIPPED_RENDERER_PACKAGES.join('|')})[\\\\/]`);

export function shippedRendererPlugins(): Plugin[] {
  return [
    esbuildPluginsInVite(RENDERER_PATCHES),
    {
      // The packages' published files name source maps whose sources are not published, and vitest
      // warns of each; loaded here without that comment they are the code Node would run.
      name: 'dependencies-without-source-maps',
      enforce: 'pre',
      load: (id) =>
        TRANSFORMED.test(id) && id.endsWith('.js')
          ? readFileSync(id, 'utf8').replace(/^\/\/# sourceMappingURL=.*$/m, '')
          : null,
    },
  ];
}
