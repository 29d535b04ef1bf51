import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, sweepOrphanWorkspaces } from './sim-workspaces';
import { tempDirForTest } from '../support/after-the-test';
import { startChild } from '../support/test-children';

/** The first line the child writes (the workspace it made). */
function firstLine(stdout: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
  });
}

describe("the simulator's workspaces", () => {
  it('are removed by the next one made after their process was killed with SIGKILL', async () => {
    const base = tempDirForTest('tole-sim-base-');
    const holder = startChild('sim-workspace-holder', [base], { timeoutMs: 30_000 });
    const orphan = await firstLine(holder.child.stdout!);
    expect(orphan.startsWith(join(base, `tole-sim-${holder.child.pid}-`))).toBe(true);
    expect(existsSync(orphan)).toBe(true);
    holder.child.kill('SIGKILL');
    expect((await holder.done).signal).toBe('SIGKILL');
    // The killed fork ran no exit handler: its workspace is still there until the next one is made.
    expect(existsSync(orphan)).toBe(true);
    const mine = makeWorkspace(base);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(mine)).toBe(true);
  });

  it("leave a living process's workspace and directories they did not make alone", () => {
    const base = tempDirForTest('tole-sim-base-');
    const living = join(base, `tole-sim-${process.pid}-abcdef`);
    const foreign = [join(base, 'tole-sim-abcdef'), join(base, 'other-1-dir')];
    for (const dir of [living, ...foreign]) mkdirSync(dir);
    expect(sweepOrphanWorkspaces(base)).toEqual([]);
    for (const dir of [living, ...foreign]) expect(existsSync(dir)).toBe(true);
  });
});
