/**
 * The screen sets V8 flags before its script is compiled (src/cli/v8-flags.ts, called by
 * src/cli/screen-loader.ts). V8 checks a code cache against its flags, which shows that setting
 * them at run time reaches V8: code cached under them is refused by a process without them and
 * taken by one with them (so the screen's cache, made and read under them, stays in use).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo-root';
import { childScript } from '../support/test-children';
import { tempDirForFile } from '../support/after-the-test';

const dir = tempDirForFile('tole-v8-flags-');

function run(
  mode: 'write' | 'read' | 'gc' | 'tenure',
  flags: 'screen' | 'none',
  file: string,
  nodeArgs: readonly string[] = [],
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, childScript('v8-flags-child'), mode, flags, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child ended ${code}`))));
  });
}

describe("the screen's V8 flags", () => {
  it('reach V8 when set at run time: code cached under them is only taken under them', async () => {
    const file = join(dir, 'screen.cache');
    await run('write', 'screen', file);
    expect(readFileSync(file).length).toBeGreaterThan(0);
    expect(await run('read', 'screen', file)).toBe('taken');
    expect(await run('read', 'none', file)).toBe('refused');
  }, 60_000);

  it('offer the young-generation collection the screen runs between turns, and only under them', async () => {
    const withFlags = JSON.parse(await run('gc', 'screen', '-')) as { offered: boolean; kinds: number[] };
    expect(withFlags.offered).toBe(true);
    // 1 is a minor (young-generation) collection, the one asked for.
    expect(withFlags.kinds).toContain(1);
    // Without them nothing is offered (a collection V8 makes on its own in that window may still be seen).
    const without = JSON.parse(await run('gc', 'none', '-')) as { offered: boolean; kinds: number[] };
    expect(without.offered).toBe(false);
  }, 60_000);

  it("keep objects of a site whose objects all live on in the young generation, instead of making that site's next ones old", async () => {
    // V8 would make such a site's objects in the old generation from then on, and throw away the
    // optimized code of every function that makes them (it was compiled for young ones): in a
    // streamed reply, the frame's row and cell functions, compiled again. Under the screen's flags
    // the site stays young. `--allow-natives-syntax` only lets the child ask where an object is.
    // V8 makes a site old only at a collection whose young generation is at its largest (or above
    // 8 MB): below it the site is only "maybe old" (`--trace-pretenuring-statistics`), and how far
    // V8 has grown the young generation by then varies from run to run: with its own sizing, 1
    // control run in 30 kept the site young at load 6. Its size is fixed here (smallest = largest
    // = 16 MB, V8's default largest on 64 bits), so the first collection after the site's first
    // 100 survivors decides ("undecided => tenure"): 30 runs of 30 made it old at the same load.
    const args = ['--allow-natives-syntax', '--expose-gc', '--min-semi-space-size=16', '--max-semi-space-size=16'];
    const young = async (flags: 'screen' | 'none'): Promise<boolean[]> =>
      (JSON.parse(await run('tenure', flags, '-', args)) as { young: boolean[] }).young;
    expect(await young('none')).toEqual([false, false]);
    expect(await young('screen')).toEqual([true, true]);
  }, 60_000);

  it('are set by the screen loader before it compiles the screen script', () => {
    const loader = readFileSync(join(REPO_ROOT, 'src/cli/screen-loader.ts'), 'utf8');
    const body = loader.slice(loader.indexOf('export async function runScreenBundle'));
    expect(body.indexOf('setScreenV8Flags();')).toBeGreaterThan(-1);
    expect(body.indexOf('setScreenV8Flags();')).toBeLessThan(body.indexOf('loadScript('));
  });
});
