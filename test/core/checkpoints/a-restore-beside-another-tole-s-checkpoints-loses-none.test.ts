/**
 * Two toles on one workspace: one restores its files to a checkpoint while the other, a process of
 * its own, changes its own files and takes checkpoints, and is SIGKILLed mid-checkpoint. Whatever
 * the interleaving: no checkpoint the other tole was told of falls off the chain, the ref never
 * moves back (each acknowledged checkpoint is an ancestor of the next), every checkpoint holds
 * each file whole (as one tole or the other wrote it, never half), a restore leaves the restoring
 * tole's files as its checkpoint holds them (or says which files still differ, and only files the
 * other tole changed), and a checkpoint after a kill is taken on the same chain.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { RestoreIncomplete } from '../../../src/core/checkpoints/restore-plan';
import { tempDirs, type TempDirs } from '../../support/agent-fixtures';
import { inCheckpoints } from '../../support/checkpoint-reads';
import { startChild } from '../../support/test-children';

let dirs: TempDirs;
beforeEach(() => {
  dirs = tempDirs('tole-restore-beside-');
});
afterEach(() => dirs.remove());

/** The restoring tole's own files: large enough that a file caught half written would show. */
const OWN = ['own-0.txt', 'own-1.txt', 'own-2.txt'];
const versionOf = (name: string, version: string): string => `${name} ${version}\n`.repeat(8192);

function writeOwn(version: string): void {
  for (const name of OWN) writeFileSync(join(dirs.root, name), versionOf(name, version));
}

async function take(checkpoints: Checkpoints): Promise<string> {
  const taken = await checkpoints.take();
  if (!taken.ok) throw new Error(`checkpoint failed: ${taken.reason}`);
  return taken.id;
}

/** `path` in checkpoint `id` ('' when it does not hold it). */
function fileIn(checkpoints: Checkpoints, id: string, path: string): string {
  return spawnSync('git', ['show', `${id}:${path}`], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { PATH: process.env['PATH'], GIT_DIR: checkpoints.directory, GIT_CONFIG_GLOBAL: '/dev/null' },
  }).stdout;
}

function isAncestor(checkpoints: Checkpoints, older: string, newer: string): boolean {
  return (
    spawnSync('git', ['merge-base', '--is-ancestor', older, newer], {
      env: { PATH: process.env['PATH'], GIT_DIR: checkpoints.directory, GIT_CONFIG_GLOBAL: '/dev/null' },
    }).status === 0
  );
}

interface Line {
  readonly round: number;
  readonly ok: boolean;
  readonly id?: string;
  readonly reason?: string;
}

/**
 * The other tole: `rounds` checkpoints of its own files (other-*.txt); `onLine` sees each result as
 * it is printed. Resolves with every line it printed whole, and how it ended.
 */
function otherTole(
  rounds: number,
  onLine: (line: Line, kill: () => void) => void,
): Promise<{ lines: Line[]; signal: NodeJS.Signals | null }> {
  const started = startChild('checkpoint-looper', [dirs.home, dirs.root, 'other', String(rounds)], {
    timeoutMs: 120_000,
  });
  const lines: Line[] = [];
  let pending = '';
  started.child.stdout?.on('data', (chunk: string) => {
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = JSON.parse(pending.slice(0, end)) as Line;
      pending = pending.slice(end + 1);
      lines.push(line);
      onLine(line, () => started.child.kill('SIGKILL'));
    }
  });
  return started.done.then((run) => {
    if (run.signal === null && run.code !== 0) throw new Error(`the other tole failed: ${run.stderr}`);
    return { lines, signal: run.signal };
  });
}

/** The restore, and what it leaves: the own files as `version` holds them, or which files still differ. */
async function restoreTo(checkpoints: Checkpoints, id: string, version: string): Promise<'whole' | 'incomplete'> {
  try {
    await checkpoints.restore(id);
    for (const name of OWN) expect(readFileSync(join(dirs.root, name), 'utf8')).toBe(versionOf(name, version));
    return 'whole';
  } catch (error) {
    if (!(error instanceof RestoreIncomplete)) throw error;
    // Only the other tole's files, changed while the restore ran, may still differ.
    const left = [...error.left.added, ...error.left.changed, ...error.left.removed];
    expect(left.every((path) => path.startsWith('other-'))).toBe(true);
    for (const name of OWN) expect(readFileSync(join(dirs.root, name), 'utf8')).toBe(versionOf(name, version));
    return 'incomplete';
  }
}

/** What every acknowledged checkpoint of the other tole must satisfy against the ref `head`. */
function checkChain(checkpoints: Checkpoints, acknowledged: readonly Line[], head: string): void {
  let previous: string | null = null;
  for (const line of acknowledged) {
    const id = line.id!;
    expect(isAncestor(checkpoints, id, head), `round ${line.round} on the chain`).toBe(true);
    if (previous !== null)
      expect(isAncestor(checkpoints, previous, id), `round ${line.round} after the one before`).toBe(true);
    previous = id;
    // Its own file as it wrote it, or gone (a restore removed it meanwhile): never anything else.
    const own = fileIn(checkpoints, id, `other-${line.round % 4}.txt`);
    expect(['', `other ${line.round}\n`]).toContain(own);
    // The restoring tole's files are each whole: one version or the other.
    for (const name of OWN) {
      expect([versionOf(name, 'one'), versionOf(name, 'two')], `${name} whole in round ${line.round}`).toContain(
        fileIn(checkpoints, id, name),
      );
    }
  }
}

describe('a restore while another tole checkpoints the same workspace', () => {
  it('loses no checkpoint, never moves the ref back, and restores the files whole', async () => {
    const restorer = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
    try {
      writeOwn('one');
      const one = await take(restorer);
      writeOwn('two');
      const two = await take(restorer);
      const outcomes: string[] = [];
      let restoring: Promise<void> | null = null;
      let done = false;
      const other = otherTole(24, () => {
        // From the other tole's first checkpoint on, restores back and forth until it is done.
        restoring ??= (async () => {
          for (let i = 0; !done; i++) {
            outcomes.push(await restoreTo(restorer, i % 2 === 0 ? one : two, i % 2 === 0 ? 'one' : 'two'));
          }
        })();
      });
      const { lines } = await other;
      done = true;
      await restoring;
      expect(lines.filter((l) => !l.ok)).toEqual([]);
      expect(outcomes.length).toBeGreaterThan(1);
      const head = await take(restorer);
      checkChain(restorer, lines, head);
      expect(inCheckpoints(restorer, 'fsck', '--connectivity-only', '--no-dangling', head)).toBe('');
    } finally {
      restorer.close();
    }
  });

  it('SIGKILLed mid-checkpoint again and again: every checkpoint it was told of stays on the chain, and the restorer goes on', async () => {
    const restorer = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
    try {
      writeOwn('one');
      const one = await take(restorer);
      writeOwn('two');
      const two = await take(restorer);
      const acknowledged: Line[] = [];
      for (let kill = 0; kill < 6; kill++) {
        // Killed once it printed `kill % 3 + 1` checkpoints: in the next one's write, scan or ref move.
        let restoring: Promise<string> | null = null;
        const { lines, signal } = await otherTole(12, (line, stop) => {
          restoring ??= restoreTo(restorer, kill % 2 === 0 ? one : two, kill % 2 === 0 ? 'one' : 'two');
          if (line.round === kill % 3) stop();
        });
        expect(signal).toBe('SIGKILL');
        await restoring;
        expect(lines.filter((l) => !l.ok)).toEqual([]);
        acknowledged.push(...lines);
        // The restorer checkpoints after the kill, on the chain the killed tole left.
        const head = await take(restorer);
        checkChain(restorer, acknowledged, head);
      }
      const head = await take(restorer);
      expect(inCheckpoints(restorer, 'fsck', '--connectivity-only', '--no-dangling', head)).toBe('');
    } finally {
      restorer.close();
    }
  });
});
