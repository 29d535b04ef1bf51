import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';
import { tempDirs, type TempDirs } from '../support/agent-fixtures';
import { fileAppears } from '../support/file-appears';
import type { StartedChild } from '../support/spawn-node';
import { startChild } from '../support/test-children';

/**
 * Two (or three) toles on one workspace, each its own process with its own checkpoint gits, as
 * two sessions in one folder are: they checkpoint at once, and one is SIGKILLed while its git
 * holds the checkpoint ref's lock. No tole may stop checkpointing, lose a checkpoint, or take
 * another's tree for its own.
 */
let dirs: TempDirs;
const started: StartedChild[] = [];
const strayPids: number[] = [];
beforeEach(() => {
  dirs = tempDirs('tole-two-toles-');
});
afterEach(async () => {
  for (const { child, done } of started.splice(0)) {
    child.kill('SIGKILL');
    await done;
  }
  // The hanging git's sleep dies with the killed tole (setpriv --pdeathsig); one still there is
  // killed only while its command line is this test's own (its pid may have gone to another process).
  for (const pid of strayPids.splice(0)) {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
    } catch {
      continue;
    }
    if (cmdline === `sleep\0${SLEEP}\0`) process.kill(pid, 'SIGKILL');
  }
  dirs.remove();
});

/** The hanging git's sleep, a duration no other process is likely to sleep for. */
const SLEEP = `999.${String(process.pid).padStart(7, '0')}`;

const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

interface Taken {
  readonly round: number;
  readonly ok: boolean;
  readonly id?: string;
  readonly reason?: string;
}

/** A second tole (checkpoint-session.ts) that takes `rounds` checkpoints of its file NAME.txt; resolves with them once it holds. */
async function secondTole(name: string, rounds: number): Promise<{ tole: StartedChild; taken: Taken[] }> {
  const tole = startChild('checkpoint-session', [dirs.home, dirs.root, name, String(rounds)], { timeoutMs: 120_000 });
  started.push(tole);
  const taken = await new Promise<Taken[]>((resolve, reject) => {
    let out = '';
    tole.child.stdout!.on('data', (chunk: Buffer | string) => {
      out += String(chunk);
      if (out.includes('holding\n'))
        resolve(
          out
            .split('\n')
            .filter((line) => line.startsWith('{'))
            .map((line) => JSON.parse(line) as Taken),
        );
    });
    void tole.done.then((run) => reject(new Error(`the second tole ended before it held: ${run.stdout}${run.stderr}`)));
  });
  return { tole, taken };
}

function inDir(dir: string, ...args: string[]): string {
  const run = spawnSync(realGit, args, { env: { PATH: process.env.PATH, GIT_DIR: dir }, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

function onChain(dir: string): Set<string> {
  return new Set(inDir(dir, 'rev-list', 'refs/tole/checkpoints').trim().split('\n'));
}

/** A git that runs the real one, except `update-ref`: it takes the ref's lock as git does, says its pid, and hangs. */
function gitHangingInUpdateRef(pidFile: string): string {
  const path = join(dirs.outside, 'git');
  writeFileSync(
    path,
    `#!/bin/sh\ncase " $* " in *" update-ref "*) mkdir -p "$GIT_DIR/refs/tole"; : > "$GIT_DIR/refs/tole/checkpoints.lock"; echo $$ > '${pidFile}.tmp'; mv '${pidFile}.tmp' '${pidFile}'; exec sleep ${SLEEP};; esac\nexec '${realGit}' "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** A tole SIGKILLed while its git holds `refs/tole/checkpoints.lock` (mid-update-ref): the lock stays behind. */
async function toleKilledMidUpdateRef(): Promise<string> {
  const pidFile = join(dirs.outside, 'git.pid');
  const git = gitHangingInUpdateRef(pidFile);
  writeFileSync(join(dirs.root, 'killed.txt'), 'the killed tole\n');
  const tole = startChild('checkpoint-taker', [dirs.home, dirs.root, git], { timeoutMs: 60_000 });
  await Promise.race([
    fileAppears(pidFile),
    tole.done.then((run) => {
      throw new Error(`the tole ended before its git took the lock: ${run.stdout}${run.stderr}`);
    }),
  ]);
  strayPids.push(Number(readFileSync(pidFile, 'utf8').trim()));
  tole.child.kill('SIGKILL');
  expect((await tole.done).signal).toBe('SIGKILL');
  const lock = join(Checkpoints.directoryFor(dirs.home, dirs.root), 'refs', 'tole', 'checkpoints.lock');
  expect(existsSync(lock)).toBe(true);
  return lock;
}

describe('two toles on one workspace', () => {
  it('checkpointing at once, in two processes: every checkpoint of each is on the chain and holds its own tree', async () => {
    const here = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
    try {
      const rounds = 6;
      const other = secondTole('b', rounds);
      const mine: Taken[] = [];
      for (let round = 1; round <= rounds; round++) {
        writeFileSync(join(dirs.root, 'a.txt'), `a round ${round}\n`);
        here.noteChanges(['a.txt']);
        mine.push({ round, ...(await here.take(round % 2 === 0 ? 'known-paths' : 'scan')) });
      }
      const { taken: theirs } = await other;
      expect(mine.every((t) => t.ok)).toBe(true);
      expect(
        theirs.every((t) => t.ok),
        JSON.stringify(theirs),
      ).toBe(true);
      const chain = onChain(here.directory);
      for (const t of [...mine, ...theirs]) expect(chain.has(t.id!)).toBe(true);
      // Each checkpoint holds its own tole's file as that tole wrote it in that round.
      for (const t of mine) expect(inDir(here.directory, 'show', `${t.id}:a.txt`)).toBe(`a round ${t.round}\n`);
      for (const t of theirs) expect(inDir(here.directory, 'show', `${t.id}:b.txt`)).toBe(`b round ${t.round}\n`);
    } finally {
      here.close();
    }
  });

  it.each([
    1, 2,
  ])('one SIGKILLed mid-update-ref while %i other toles run with their gits idle: the next checkpoint removes the stale lock and is taken', async (others) => {
    const names = ['b', 'c'].slice(0, others);
    const toles = await Promise.all(names.map((name) => secondTole(name, 1)));
    for (const { taken } of toles) expect(taken[0]).toMatchObject({ ok: true });
    const lock = await toleKilledMidUpdateRef();
    const here = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root, lockWaitsMs: [20, 50, 100] });
    try {
      writeFileSync(join(dirs.root, 'a.txt'), 'after the kill\n');
      const taken = await here.take();
      expect(taken, JSON.stringify(taken)).toMatchObject({ ok: true });
      expect(existsSync(lock)).toBe(false);
      const chain = onChain(here.directory);
      for (const { taken: theirs } of toles) expect(chain.has(theirs[0]!.id!)).toBe(true);
      expect(inDir(here.directory, 'show', `${(taken as { id: string }).id}:a.txt`)).toBe('after the kill\n');
    } finally {
      here.close();
    }
  });

  it("a git of tole's own command line that holds the lock mid-transaction while it waits on its stdin (tole never splits a request so): its lock is taken as stale, and its commit then fails without touching the chain", async () => {
    const here = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root, lockWaitsMs: [20, 50, 100] });
    let split: ChildProcessWithoutNullStreams | undefined;
    try {
      writeFileSync(join(dirs.root, 'a.txt'), 'first\n');
      const first = await here.take();
      expect(first).toMatchObject({ ok: true });
      const head = (first as { id: string }).id;
      // A split request: `prepare` takes the lock, and the git waits on its stdin for `commit`.
      const git = spawn(realGit, ['update-ref', '--stdin', '-z'], {
        env: { PATH: process.env.PATH, GIT_DIR: here.directory },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      split = git;
      let out = '';
      let err = '';
      git.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      const ended = new Promise<number | null>((resolve) => git.on('close', resolve));
      const prepared = new Promise<void>((resolve, reject) => {
        git.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('prepare: ok')) resolve();
        });
        void ended.then(() => reject(new Error(`the split git ended before it prepared: ${out}${err}`)));
      });
      // It would move the ref to the first checkpoint's tree: an object that is there, and never a checkpoint.
      const tree = inDir(here.directory, 'rev-parse', `${head}^{tree}`).trim();
      git.stdin.write(`start\0update refs/tole/checkpoints\0${tree}\0${head}\0prepare\0`);
      await prepared;
      expect(existsSync(join(here.directory, 'refs', 'tole', 'checkpoints.lock'))).toBe(true);

      writeFileSync(join(dirs.root, 'a.txt'), 'second\n');
      const second = await here.take();
      expect(second).toMatchObject({ ok: true });
      git.stdin.end('commit\0');
      expect(await ended).not.toBe(0);
      // The ref holds tole's checkpoint, on the chain after the first: never the split git's id.
      const id = (second as { id: string }).id;
      expect(inDir(here.directory, 'rev-parse', 'refs/tole/checkpoints').trim()).toBe(id);
      expect(onChain(here.directory).has(head)).toBe(true);
    } finally {
      here.close();
      split?.kill('SIGKILL');
    }
  });

  it('a lock held by another process whose git is busy (not waiting on its stdin) is waited for, never removed', async () => {
    const { taken: theirs } = await secondTole('b', 1);
    expect(theirs[0]).toMatchObject({ ok: true });
    const dir = Checkpoints.directoryFor(dirs.home, dirs.root);
    const lock = join(dir, 'refs', 'tole', 'checkpoints.lock');
    writeFileSync(lock, '');
    // A git running for the directory, blocked opening a fifo no one writes: busy, not idle on its stdin.
    const fifo = join(dirs.outside, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const busy = spawn(realGit, ['hash-object', fifo], {
      env: { PATH: process.env.PATH, GIT_DIR: dir },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const here = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root, lockWaitsMs: [10, 10] });
    try {
      writeFileSync(join(dirs.root, 'a.txt'), 'while a git is busy\n');
      const taken = await here.take();
      expect(taken).toMatchObject({ ok: false });
      expect(existsSync(lock)).toBe(true);
    } finally {
      here.close();
      busy.kill('SIGKILL');
    }
  });
});
