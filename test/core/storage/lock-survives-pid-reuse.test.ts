import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeFileOps, type FileOps } from '../../../src/core/storage/file-ops';
import { lockPathFor, unlockSession, type LockOwner } from '../../../src/core/storage/lock-file';
import { systemProbe } from '../../../src/core/storage/process-probe';
import { createStore, openStore, tempDir } from '../../support/storage-fixtures';
import { childScript } from '../../support/test-children';
import { holdingTheLock } from '../../support/lock-holder';
import { REPO_ROOT } from '../../support/repo-root';

const dir = tempDir('tole-lock-');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  dir.remove();
});

/** A live process that is not a tole and holds no lock: a pid a lock may name after reuse. */
function unrelatedProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
  );
}

function session(): string {
  const store = createStore(dir.path);
  store.close();
  return store.path;
}

function plantLock(path: string, owner: Partial<LockOwner>): void {
  const base: LockOwner = {
    pid: deadPid(),
    host: hostname(),
    nonce: 'planted',
    createdAt: 1,
    bootId: systemProbe.bootId(),
    pidNamespace: systemProbe.pidNamespace(),
  };
  writeFileSync(lockPathFor(path), JSON.stringify({ ...base, ...owner }));
}

function lockOwner(path: string): LockOwner {
  return JSON.parse(readFileSync(lockPathFor(path), 'utf8')) as LockOwner;
}

describe('a lock that names a pid now used by another process', () => {
  it('records the start time, boot id and pid namespace of its holder', () => {
    const path = session();
    const store = openStore(path);
    expect(lockOwner(path)).toMatchObject({
      pid: process.pid,
      startTime: systemProbe.startTime(process.pid),
      bootId: systemProbe.bootId(),
      pidNamespace: systemProbe.pidNamespace(),
    });
    expect(lockOwner(path).startTime).toMatch(/^\d+$/);
    store.close();
  });

  it('is taken over when the live pid it names started at another time (pid reuse)', () => {
    const path = session();
    const pid = unrelatedProcess();
    plantLock(path, { pid, startTime: '1' });
    const store = openStore(path);
    expect(lockOwner(path)).toMatchObject({ pid: process.pid });
    store.close();
  });

  it('is taken over when it names this process itself but was not taken by it (a restarted container is pid 1 again)', () => {
    const path = session();
    plantLock(path, { pid: process.pid, startTime: '1', nonce: 'before-the-restart' });
    const store = openStore(path);
    expect(lockOwner(path).nonce).not.toBe('before-the-restart');
    store.close();
  });

  it('is taken over when it was taken before the machine restarted', () => {
    const path = session();
    plantLock(path, { pid: unrelatedProcess(), bootId: 'another-boot' });
    openStore(path).close();
  });

  it('is not taken over while the tole that took it runs, and says so', async () => {
    const path = session();
    const holder = await holdingTheLock(path);
    children.push(holder.child);
    expect(() => openStore(path)).toThrow(
      `session is locked by pid ${holder.child.pid} on ${hostname()}, a running tole: close that tole`,
    );
    expect(unlockSession(nodeFileOps, path)).toMatchObject({ removed: false, verdict: { state: 'held' } });
    expect(existsSync(lockPathFor(path))).toBe(true);
    holder.child.kill('SIGKILL');
  });

  it('tells the user to run tole unlock when it cannot decide, and tole unlock removes it only when forced', () => {
    const path = session();
    plantLock(path, { pid: unrelatedProcess() });
    expect(() => openStore(path)).toThrow(
      `if no tole is using this session, run tole unlock ${path} (it checks first)`,
    );
    expect(unlockSession(nodeFileOps, path)).toMatchObject({ removed: false, verdict: { state: 'unknown' } });
    expect(() => openStore(path)).toThrow(/session is locked/);
    expect(unlockSession(nodeFileOps, path, true)).toMatchObject({ removed: true, verdict: { state: 'unknown' } });
    openStore(path).close();
  });
});

describe('two openers taking over one stale lock at the same instant', () => {
  it('lets exactly one win when the second reads the stale lock just before the first replaces it', () => {
    const path = session();
    plantLock(path, { nonce: 'stale' });
    const opened: string[] = [];
    let first: ReturnType<typeof openStore> | null = null;
    // The second opener's read of the lock runs the whole first open before it returns the stale bytes.
    const interleaved: FileOps = {
      ...nodeFileOps,
      readFileSync: (file) => {
        const bytes = nodeFileOps.readFileSync(file);
        if (first === null && file === lockPathFor(path)) {
          first = openStore(path);
          opened.push('first');
        }
        return bytes;
      },
    };
    let secondError: unknown = null;
    try {
      openStore(path, { ops: interleaved }).close();
      opened.push('second');
    } catch (error) {
      secondError = error;
    }
    expect(opened).toEqual(['first']);
    expect(secondError).toMatchObject({ kind: 'locked', message: expect.stringContaining('a running tole') });
    expect(lockOwner(path).nonce).not.toBe('stale');
    first!.close();
  });

  it('lets exactly one of several processes win a real race', async () => {
    const rounds = 3;
    const racers = 3;
    for (let round = 0; round < rounds; round++) {
      const path = session();
      const go = join(dir.path, `go-${round}`);
      plantLock(path, { nonce: `stale-${round}` });
      const started = Array.from({ length: racers }, () => {
        const child = spawn(process.execPath, [childScript('stale-lock-racer'), path, go], {
          cwd: REPO_ROOT,
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        children.push(child);
        let out = '';
        const ready = new Promise<void>((resolve) =>
          child.stdout!.on('data', (chunk: Buffer) => ((out += chunk), out.includes('ready') && resolve())),
        );
        const answered = new Promise<string>((resolve) =>
          child.stdout!.on('data', () => /won|locked|error/.test(out) && resolve(out)),
        );
        return { child, ready, answered };
      });
      await Promise.all(started.map((racer) => racer.ready));
      writeFileSync(go, '');
      const answers = (await Promise.all(started.map((racer) => racer.answered))).map((out) =>
        out.replace('ready\n', '').trim(),
      );
      for (const racer of started) racer.child.stdin!.end();
      expect(
        answers.filter((answer) => answer === 'won'),
        `round ${round}: ${answers.join(', ')}`,
      ).toHaveLength(1);
      expect(answers.filter((answer) => answer === 'locked')).toHaveLength(racers - 1);
    }
  }, 120_000);
});
