/**
 * The build rewrites the text of some dependencies (and of esbuild's own output) as it bundles the
 * screen's script. Each rewrite fails the build when its line moved, but a line can stay where it
 * was while what around it means changes; so each package is pinned here to the version its patch
 * was checked against, and an upgrade fails this test with what to re-check. (Ink has its own,
 * test/tui/ink-is-the-version-tole-was-checked-against.test.ts.) The copy checked is the one the
 * bundle takes: resolved from the package that imports it, as Node and esbuild resolve it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo-root';
import { tempDirForTest } from '../support/after-the-test';

interface Patched {
  readonly name: string;
  /** The package whose import of it the bundle follows (the project itself: undefined). */
  readonly importedBy?: string;
  readonly checked: string;
  readonly recheck: string;
}

const PATCHED: readonly Patched[] = [
  {
    name: 'yoga-layout',
    importedBy: 'ink',
    checked: '3.2.1',
    recheck:
      "scripts/yoga-sync-plugin.mjs (the Emscripten loader's instantiateWasm hook and the entry's wrapAssembly(await loadYoga())), scripts/yoga-no-fetch-plugin.mjs (its two fetch checks) and scripts/wasm-initial-memory.mjs (the memory section it rewrites)",
  },
  {
    name: 'string-width',
    importedBy: 'ink',
    checked: '8.3.0',
    recheck: 'scripts/string-width-lazy-plugin.mjs (the RGI_Emoji pattern built at load, and how it is used)',
  },
  {
    name: 'signal-exit',
    importedBy: 'ink',
    checked: '3.0.7',
    recheck: 'scripts/signal-exit-no-assert-plugin.mjs (the assert it requires, and that assert.equal is its only use)',
  },
  {
    name: 'esbuild',
    checked: '0.28.2',
    recheck:
      'scripts/shared-namespaces.mjs and scripts/lazy-builtins.mjs, which rewrite esbuild\'s CommonJS output (its __toESM helper and `var import_x = require("node:x")` lines), scripts/zod-on-use-plugin.mjs (the require it turns into an init on first use) and scripts/segmenter-inject.mjs (an `inject` file whose export named `Intl.Segmenter` replaces every read of that global)',
  },
];

/** The package.json of `name` as Node finds it from `from`: the nearest node_modules up the tree. */
function installedManifest(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed where ${from} would find it`);
  }
}

describe('each dependency whose text the build rewrites', () => {
  for (const patched of PATCHED) {
    it(`${patched.name} is the version its patch was checked against`, () => {
      const from =
        patched.importedBy === undefined ? REPO_ROOT : dirname(installedManifest(patched.importedBy, REPO_ROOT));
      const version = (JSON.parse(readFileSync(installedManifest(patched.name, from), 'utf8')) as { version: string })
        .version;
      expect(
        version,
        `${patched.name} ${version} is installed but the build's patch was checked against ${patched.checked}: re-check ${patched.recheck}, then update this test`,
      ).toBe(patched.checked);
    });
  }

  it('finds the copy a package imports before the hoisted one', () => {
    const root = tempDirForTest('tole-patched-');
    for (const [path, version] of [
      ['node_modules/b', '1.0.0'],
      ['node_modules/a/node_modules/b', '2.0.0'],
      ['node_modules/a', '1.0.0'],
    ] as const) {
      mkdirSync(join(root, path), { recursive: true });
      writeFileSync(join(root, path, 'package.json'), JSON.stringify({ version }));
    }
    expect(installedManifest('b', join(root, 'node_modules', 'a'))).toBe(
      join(root, 'node_modules/a/node_modules/b/package.json'),
    );
    expect(installedManifest('b', root)).toBe(join(root, 'node_modules/b/package.json'));
    expect(() => installedManifest('c', join(root, 'node_modules', 'a'))).toThrow(/not installed/);
  });
});
