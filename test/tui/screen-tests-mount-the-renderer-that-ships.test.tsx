/**
 * The screen tier (vitest.config.ts) mounts the renderer dist/screen.cjs ships: Ink's output stage is
 * tole's (scripts/ink-output-plugin.mjs, with its width and text measures and sanitizer),
 * Intl.Segmenter is tole's on-use class, and React and its reconciler are their production builds
 * (REACT_AS_SHIPPED in test/support/shipped-renderer.ts). Each check
 * fails when vitest loads stock Ink instead, so a screen test can never again pass on a renderer
 * users do not get.
 */
import { Box, Text } from 'ink';
import { render } from 'ink-testing-library';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Output from '../../src/tui/frame/ink-output';
import { SegmenterOnUse } from '../../src/tui/text/segmenter-on-use';
import { REPO_ROOT } from '../support/repo-root';
import { SHIPPED_RENDERER_PACKAGES } from '../support/shipped-renderer';

afterEach(() => {
  vi.restoreAllMocks();
});

type Manifest = { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };

describe('the screen tier', () => {
  it("draws every frame through tole's output stage", () => {
    const get = vi.spyOn(Output.prototype, 'get');
    const { lastFrame, unmount } = render(
      <Box borderStyle="round" width={12}>
        <Text>shipped</Text>
      </Box>,
    );
    expect(lastFrame()).toContain('shipped');
    expect(get).toHaveBeenCalled();
    unmount();
  });

  it("segments with tole's on-use Segmenter, as the shipped script does", () => {
    expect(Intl.Segmenter).toBe(SegmenterOnUse);
  });

  it("runs React's and its reconciler's production builds, as the shipped script does", () => {
    render(<Text>shipped</Text>).unmount();
    // Node's import of a CommonJS module reads the files its `module.exports = require(…)` lines
    // name, both branches of react's NODE_ENV test, and leaves them in the cache unrun: only the
    // modules that ran count.
    const cache = createRequire(import.meta.url).cache;
    const loaded = Object.keys(cache).filter(
      (path) => /[\\/]node_modules[\\/]react(-reconciler)?[\\/]cjs[\\/]/.test(path) && cache[path]?.loaded === true,
    );
    expect(loaded.some((path) => path.endsWith('react.production.js'))).toBe(true);
    expect(loaded.some((path) => path.endsWith('react-reconciler.production.js'))).toBe(true);
    expect(loaded.filter((path) => path.includes('.development.'))).toEqual([]);
  });

  it('transforms every installed package that imports Ink, so that none loads a second, stock Ink', () => {
    const modules = join(REPO_ROOT, 'node_modules');
    const manifests = readdirSync(modules)
      .flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`) : [name]))
      .flatMap((name) => {
        try {
          return [
            { name, manifest: JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as Manifest },
          ];
        } catch {
          return [];
        }
      });
    const dependentsOf = (dependency: string): string[] =>
      manifests
        .filter(({ manifest }) => manifest.dependencies?.[dependency] ?? manifest.peerDependencies?.[dependency])
        .map(({ name }) => name);
    // The scan reads what it should: Ink names React among its peers. The loop may find no package
    // today (the tree's fields stopped using ink-text-input); it catches one added later.
    expect(dependentsOf('react')).toContain('ink');
    for (const name of dependentsOf('ink'))
      expect(SHIPPED_RENDERER_PACKAGES, `${name} imports Ink: add it to test/support/shipped-renderer.ts`).toContain(
        name,
      );
  });
});
