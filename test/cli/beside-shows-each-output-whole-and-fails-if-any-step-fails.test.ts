/**
 * scripts/beside.mjs, which `npm test` runs the type check and the lint beside vitest with: the
 * main command's output as it comes, each side command's output whole after it, and the first
 * failing status in the order given, so that no failing step passes `npm test`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForTest } from '../support/after-the-test';
import { REPO_ROOT } from '../support/repo-root';
import { startNode } from '../support/spawn-node';

const BESIDE = join(REPO_ROOT, 'scripts/beside.mjs');
const node = (code: string): string[] => [process.execPath, '-e', code];

async function beside(...commands: string[][]) {
  const args = commands.flatMap((command) => ['--', ...command]);
  return startNode(BESIDE, args, { env: process.env }).done;
}

describe('scripts/beside.mjs', () => {
  it('passes when every step passes, each side shown whole under its command after the main one', async () => {
    const run = await beside(
      node("console.log('main 1'); console.log('main 2')"),
      node("console.log('check a'); console.error('check a, on stderr')"),
      node("console.log('check b')"),
    );
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out.indexOf('main 2')).toBeLessThan(out.indexOf('check a'));
    expect(out).toMatch(/> \S+ -e console\.log\('check a'\)[^\n]*\ncheck a\ncheck a, on stderr\n/);
    expect(out.indexOf('check a, on stderr')).toBeLessThan(out.indexOf('check b'));
  });

  it("keeps a side's output out of the main one's even when the side wrote first", async () => {
    const dir = tempDirForTest('beside-');
    const mark = join(dir, 'side-wrote');
    // The main command writes only once the side has written and left its mark.
    const main = `const fs = require('node:fs'); const wait = () => fs.existsSync(${JSON.stringify(mark)}) ? console.log('main, after the side') : setTimeout(wait, 10); wait();`;
    const side = `console.log('side output'); require('node:fs').writeFileSync(${JSON.stringify(mark)}, '')`;
    const run = await beside(node(main), node(side));
    expect(run.code).toBe(0);
    expect(run.stdout.indexOf('main, after the side')).toBeLessThan(run.stdout.indexOf('side output'));
  });

  it("fails with a failing side's status though the main command passed, and says which failed", async () => {
    const run = await beside(node('0'), node("console.error('src/x.ts(1,1): error'); process.exit(2)"), node('0'));
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/process\.exit\(2\) \(exit status 2\)\nsrc\/x\.ts\(1,1\): error\n/);
  });

  it("gives the main command's status first when more than one step fails", async () => {
    const run = await beside(node('process.exit(4)'), node('process.exit(3)'));
    expect(run.code).toBe(4);
  });

  it('fails when a step is killed by a signal or cannot start', async () => {
    expect((await beside(node('0'), node("process.kill(process.pid, 'SIGKILL')"))).code).toBe(1);
    const missing = await beside(node('0'), ['/nonexistent/tole-no-such-command']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/ENOENT/);
    expect((await beside(['/nonexistent/tole-no-such-command'], node('0'))).code).toBe(1);
  });

  it('refuses to run with no command at all', async () => {
    const run = await startNode(BESIDE, [], { env: process.env }).done;
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/usage/);
  });
});
