/**
 * What the bundle holds is compiled when it is loaded: code tole never runs stays out, Ink's
 * per-frame width measure is tole's remembered one, and what a session's first frame does not
 * need (the provider client, MCP, the regex engine for grep, sync's database driver) sits in
 * chunks loaded on first use, so that `tole --version` and the first frame do not compile it.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtFiles, chunkFor, packagesIn, staticClosure } from '../support/bundle-graph';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';

/** Loaded on first use, never for the first frame. */
const DEFERRED = ['openai', '@modelcontextprotocol/sdk', 'ajv', 're2js', 'pg'] as const;

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
    expect(everything).toContain('src/tui/text-width.ts');
  });

  it('loads for its first frame neither the provider client nor MCP, grep, or sync code', () => {
    // tole.js loads the full-screen session with import() of tui-command; all it imports statically comes first.
    expect(readFileSync(TOLE_JS, 'utf8')).toMatch(/import\("\.\/chunks\/tui-command-[\w-]+\.js"\)/);
    const firstFrame = packagesIn(staticClosure([TOLE_JS, chunkFor('tui-command')]));
    expect(firstFrame).toContain('ink');
    expect(firstFrame).toContain('react');
    const built = packagesIn(builtFiles());
    for (const name of DEFERRED) {
      expect(built, `${name} is in the build`).toContain(name);
      expect(firstFrame, `${name} waits for its first use`).not.toContain(name);
    }
  });

  it("decodes Yoga's inlined WebAssembly without touching the global fetch (which loads Node's HTTP client)", () => {
    const yoga = builtFiles()
      .map((file) => readFileSync(file, 'utf8'))
      .find((source) => source.includes('// node_modules/yoga-layout/dist/binaries/'));
    expect(yoga).toBeDefined();
    expect(yoga).not.toMatch(/typeof fetch/);
  });

  it('runs --version and --help without loading the session, the screen, or the libraries', () => {
    expect([...packagesIn(staticClosure([TOLE_JS]))]).toEqual([]);
  });
});
