/**
 * Ink writes each frame through `throttledLog`, es-toolkit's throttle with no wait: the write runs
 * at once and a 0 ms timer is left that writes nothing. tole's build (scripts/ink-resize-plugin.mjs)
 * calls the write directly. Random frames drawn by Ink bundled with tole's patches and by Ink as
 * it is, outside debug mode (where throttledLog is used), on a terminal: the same bytes, frame for
 * frame, and no timer started by tole's draws where Ink's start one a frame.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RENDERER_PATCHES } from '../../scripts/renderer-patches.mjs';
import { tempDirForFile } from '../support/after-the-test';
import { fcRuns } from '../support/fc-runs';
import { REPO_ROOT } from '../support/repo-root';

const dir = tempDirForFile('tole-ink-log-');

const SCREEN = `
import { EventEmitter } from 'node:events';
import { createElement as h } from 'react';
import { render, Box, Text } from 'ink';
import instances from ${JSON.stringify(join(REPO_ROOT, 'node_modules/ink/build/instances.js'))};
class Out extends EventEmitter {
  constructor() { super(); this.columns = 30; this.rows = 8; this.isTTY = true; this.frames = []; }
  write(data) { this.frames.push(String(data)); return true; }
}
const tree = (lines) => h(Box, { flexDirection: 'column' }, ...lines.map((line, i) => h(Text, { key: i }, line)));
/** Each frame drawn at once (Ink's draw after a commit is throttled): what it wrote, and the timers its draws started. */
export function draw(frames) {
  const out = new Out();
  const instance = render(tree(frames[0]), { stdout: out, debug: false, patchConsole: false, exitOnCtrlC: false });
  const ink = instances.get(out);
  ink.rootNode.onRender = () => {};
  const written = [];
  let timers = 0;
  const setTimeoutBefore = globalThis.setTimeout;
  for (const lines of frames) {
    instance.rerender(tree(lines));
    const from = out.frames.length;
    globalThis.setTimeout = (...args) => {
      timers++;
      return setTimeoutBefore(...args);
    };
    try {
      ink.rootNode.onImmediateRender();
    } finally {
      globalThis.setTimeout = setTimeoutBefore;
    }
    written.push(out.frames.slice(from).join(''));
  }
  instance.unmount();
  return { written, timers };
}
`;

interface Drawn {
  draw(frames: string[][]): { written: string[]; timers: number };
}

async function bundled(name: string, plugins: unknown[]): Promise<Drawn> {
  const outfile = join(dir, `${name}.mjs`);
  writeFileSync(join(dir, 'empty.js'), 'export default {};\n');
  await build({
    stdin: { contents: SCREEN, resolveDir: REPO_ROOT, loader: 'js' },
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
  // Ink decides when it loads whether it runs in CI (and then draws nothing until unmount).
  const hidden = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  try {
    return (await import(pathToFileURL(outfile).href)) as Drawn;
  } finally {
    for (const [key, value] of Object.entries(hidden)) if (value !== undefined) process.env[key] = value;
  }
}

const line = fc.constantFrom('', 'a', 'word', 'two words', '宽字', 'a longer line that wraps past thirty columns');
const frame = fc.array(line, { minLength: 1, maxLength: 6 });

describe("Ink's frame write in tole's build", () => {
  it("writes what Ink writes, frame for frame, and starts no timer where Ink's throttle starts one", async () => {
    const tole = await bundled('tole', RENDERER_PATCHES);
    const ink = await bundled('ink', []);
    let inkTimers = 0;
    let written = 0;
    await fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 8 }), (frames) => {
        const ours = tole.draw(frames);
        const theirs = ink.draw(frames);
        expect(ours.written).toEqual(theirs.written);
        expect(ours.timers).toBe(0);
        inkTimers += theirs.timers;
        written += theirs.written.filter((bytes) => bytes !== '').length;
      }),
      { numRuns: fcRuns(0.3) },
    );
    // Ink's own draws did start timers: the count above measures something.
    expect(inkTimers).toBeGreaterThan(0);
    // And frames were written (Ink outside a terminal, or in CI, writes none until unmount).
    expect(written).toBeGreaterThan(20);
  }, 60_000);
});
