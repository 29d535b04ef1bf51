/**
 * What the bundle holds is compiled when it is loaded: code tole never runs stays out, Ink's
 * per-frame width measure is tole's remembered one, and what a session's first frame does not
 * need (the provider client, MCP, the regex engine for grep, sync's database driver) waits for
 * its first use: in chunks loaded by import() in dist/tole.js, and inside the full-screen
 * session's script (dist/screen.cjs) in modules evaluated on first use, so that `tole --version`
 * and the first frame do not run it.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  builtFiles,
  chunkFor,
  DIST,
  evaluatedAtLoad,
  packagesIn,
  packagesOf,
  staticClosure,
} from '../support/bundle-graph';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';

/** Loaded on first use, never for the first frame. */
const DEFERRED = ['openai', '@modelcontextprotocol/sdk', 'ajv', 're2js', 'pg', 'zod'] as const;

let everything = '';
beforeAll(() => {
  ensureBuilt();
  everything = builtFiles()
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
});

describe('the built tole', () => {
  it("leaves out Ink's React devtools bridge and the WebSocket library under it", () => {
    expect(everything).not.toContain('node_modules/ws/');
    expect(everything).not.toContain('node_modules/ink/build/devtools.js');
  });

  it("measures Ink's text with tole's remembered widths, not widest-line", () => {
    expect(everything).not.toContain('node_modules/widest-line/');
    expect(everything).toContain('src/tui/text/text-width.ts');
  });

  it('loads for its first frame neither the provider client nor MCP, grep, or sync code', () => {
    // tole.js loads the screen's loader with import(), which runs dist/screen.cjs; nothing else is imported first.
    const toleJs = readFileSync(TOLE_JS, 'utf8');
    expect(toleJs).toMatch(/import\("\.\/chunks\/screen-loader-[\w-]+\.js"\)/);
    expect(toleJs).toContain('new URL("./screen.cjs", import.meta.url)');
    expect([...packagesIn(staticClosure([TOLE_JS, chunkFor('screen-loader')]))]).toEqual([]);
    const firstFrame = packagesOf(evaluatedAtLoad(join(DIST, 'screen.cjs')));
    expect(firstFrame).toContain('ink');
    expect(firstFrame).toContain('react');
    const built = packagesIn(builtFiles());
    for (const name of DEFERRED) {
      expect(built, `${name} is in the build`).toContain(name);
      expect(firstFrame, `${name} waits for its first use`).not.toContain(name);
    }
  });

  it('puts what the first frame does not need into the later script, and none of it into the first', () => {
    const first = packagesIn([join(DIST, 'screen.cjs')]);
    const later = packagesIn([join(DIST, 'later.cjs')]);
    for (const name of DEFERRED) {
      expect(first, `${name} is not in screen.cjs`).not.toContain(name);
      expect(later, `${name} is in later.cjs`).toContain(name);
    }
    // One copy of each library: nothing the first script holds is in the later one too.
    expect([...later].filter((name) => first.has(name))).toEqual([]);
    expect(readFileSync(join(DIST, 'screen.cjs'), 'utf8')).toContain('.laterModule("openai")');
  });

  it("decodes Yoga's inlined WebAssembly at once, without touching the global fetch (which loads Node's HTTP client)", () => {
    const screen = readFileSync(join(DIST, 'screen.cjs'), 'utf8');
    const start = screen.indexOf('// node_modules/yoga-layout/dist/binaries/');
    expect(start).toBeGreaterThan(-1);
    const loader = screen.slice(start, screen.indexOf('\n// ', start + 1));
    expect(loader).toContain('instantiateWasm');
    expect(loader).not.toMatch(/typeof fetch/);
    // Yoga's own entry would await its WebAssembly; the script's compiles it synchronously instead.
    expect(screen).toContain('new WebAssembly.Instance(new WebAssembly.Module(');
    for (const file of builtFiles()) expect(readFileSync(file, 'utf8')).not.toContain('wrapAssembly(await ');
  });

  it('writes the screen scripts in ASCII, which their loader reads as Latin-1', () => {
    for (const name of ['screen.cjs', 'later.cjs']) {
      const bytes = readFileSync(join(DIST, name));
      expect(
        bytes.findIndex((byte) => byte > 0x7f),
        name,
      ).toBe(-1);
      expect(bytes.subarray(0, 19).toString(), name).toBe('(function (exports,');
    }
    expect(readFileSync('src/cli/screen-loader.ts', 'utf8')).toContain("source.toString('latin1')");
  });

  it('runs --version and --help without loading the session, the screen, or the libraries', () => {
    expect([...packagesIn(staticClosure([TOLE_JS]))]).toEqual([]);
  });
});
