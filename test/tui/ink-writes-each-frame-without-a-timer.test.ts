import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RENDERER_PATCHES } from '../../scripts/renderer-patches.mjs';
import { tempDirForFile } from '../support/after-the-test';
import { importInkBundle } from '../support/ink-test-bundle';
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

function bundled(name: string, plugins: unknown[]): Promise<Drawn> {
  return importInkBundle<Drawn>(dir, name, SCREEN, plugins);
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
