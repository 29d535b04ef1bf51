import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { isStorageError } from '../../../src/core/storage/errors';
import { judgeLock, lockPathFor, type LockOwner } from '../../../src/core/storage/lock-file';
import { systemProbe, type ProcessProbe } from '../../../src/core/storage/process-probe';
import { childScript } from '../../support/test-children';
import { createStore, openStore, snapshot, tempDir } from '../../support/storage-fixtures';
import { unlockIn, type UnlockRun } from '../../support/unlock-in-process';

/**
 * A tole in its own pid namespace (`unshare -p -f --mount-proc`) holds a session: from here its
 * lock names pid 1 of a namespace this process is not in. Real namespaces, real processes.
 */
const dir = tempDir('tole-pidns-');
const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  dir.remove();
});

const probe = spawnSync('unshare', ['-p', '-f', '--mount-proc', '--kill-child', 'true'], { encoding: 'utf8' });
const unshareWorks = probe.status === 0;
if (!unshareWorks)
  console.log(
    `skipping the pid namespace tests: unshare -p -f --mount-proc failed here (${probe.error?.message ?? probe.stderr.trim()})`,
  );

interface Writer {
  readonly child: ChildProcessWithoutNullStreams;
  /** The next line the writer prints. */
  next(): Promise<string>;
  readonly exited: Promise<void>;
}

/** The stdin writer inside a new pid namespace (or, with `unshareArgs` empty, in this one). */
function startWriter(path: string, unshareArgs: readonly string[]): Writer {
  const node = [process.execPath, childScript('storage-stdin-writer'), path];
  const child = spawn(
    unshareArgs.length > 0 ? 'unshare' : node[0]!,
    [...unshareArgs, ...node.slice(unshareArgs.length > 0 ? 0 : 1)],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return {
    child,
    exited,
    next: () =>
      lines.length > 0
        ? Promise.resolve(lines.shift()!)
        : new Promise((resolve, reject) => {
            waiting.push(resolve);
            void exited.then(() => reject(new Error(`the writer ended: ${stderr}`)));
          }),
  };
}

const IN_NEW_NAMESPACE = ['-p', '-f', '--mount-proc', '--kill-child'];

function unlock(path: string, ...flags: string[]): UnlockRun {
  return unlockIn(dir.path, path, ...flags);
}

function session(): string {
  const store = createStore(dir.path);
  store.close();
  return store.path;
}

function lockOwner(path: string): LockOwner {
  return JSON.parse(readFileSync(lockPathFor(path), 'utf8')) as LockOwner;
}

describe.skipIf(!unshareWorks)('a tole in another pid namespace holds the session', () => {
  it('is recognised as running from the outer namespace: unlock refuses, a second opener is locked out', async () => {
    const path = session();
    const writer = startWriter(path, IN_NEW_NAMESPACE);
    expect(await writer.next()).toMatch(/^ready 1 /);
    const owner = lockOwner(path);
    expect(owner.pid).toBe(1);
    expect(owner.pidNamespace).not.toBe(systemProbe.pidNamespace());

    const refused = unlock(path);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`pid 1 of pid namespace ${owner.pidNamespace} is running`);
    expect(existsSync(lockPathFor(path))).toBe(true);
    expect(() => openStore(path)).toThrow(/a running tole/);

    writer.child.stdin.write('still the only writer\n');
    expect(await writer.next()).toMatch(/^ack \d+$/);
    writer.child.stdin.end();
    await writer.exited;
    const reopened = openStore(path);
    expect(reopened.report.tornTail).toBeNull();
    reopened.close();
  });

  it('is recognised under unshare -p without --mount-proc too (where /proc/1 is another process)', async () => {
    const path = session();
    const writer = startWriter(path, ['-p', '-f', '--kill-child']);
    expect(await writer.next()).toMatch(/^ready 1 /);
    const owner = lockOwner(path);
    const outerPid = Number(readFileSync(`/proc/${writer.child.pid}/task/${writer.child.pid}/children`, 'utf8').trim());
    expect(owner.startTime).toBe(systemProbe.startTime(outerPid));
    const refused = unlock(path, '--force');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('is running');
    writer.child.kill('SIGKILL');
    await writer.exited;
  });

  it('is stale once that namespace is gone (this process sees every process), and unlock removes it', async () => {
    if (systemProbe.pidNamespace() !== 'pid:[4026531836]') {
      console.log('skipped: this test runs in a container, which does not see every process of the machine');
      return;
    }
    const path = session();
    const writer = startWriter(path, IN_NEW_NAMESPACE);
    expect(await writer.next()).toMatch(/^ready 1 /);
    // The writer as this namespace sees it: unshare's child, killed with unshare (--kill-child)
    // but on its own time. unshare's exit does not wait for it; the lock is stale once it is gone.
    const outerPid = Number(readFileSync(`/proc/${writer.child.pid}/task/${writer.child.pid}/children`, 'utf8').trim());
    writer.child.kill('SIGKILL');
    await writer.exited;
    await vi.waitFor(() => expect(existsSync(`/proc/${outerPid}`)).toBe(false), { timeout: 10_000, interval: 20 });
    expect(existsSync(lockPathFor(path))).toBe(true);
    const run = unlock(path);
    expect(run).toMatchObject({ code: 0, err: '', out: expect.stringContaining('is gone') });
    openStore(path).close();
  });

  it('stops writing when its lock is removed and another tole opens the session: no interleaved lines', async () => {
    const path = session();
    const writer = startWriter(path, IN_NEW_NAMESPACE);
    expect(await writer.next()).toMatch(/^ready 1 /);
    writer.child.stdin.write('first, alone\n');
    expect(await writer.next()).toMatch(/^ack /);

    // Even forced, unlock leaves a running holder's lock alone; removed by hand, as an older tole's unlock did.
    expect(unlock(path, '--force')).toMatchObject({ code: 1 });
    spawnSync('rm', [lockPathFor(path)]);
    const second = openStore(path);
    const [entry] = second.commit([
      {
        kind: 'entry',
        timestamp: second.now(),
        id: second.newEntryId(),
        parentId: null,
        type: 'user',
        payload: { text: 'second' },
      },
    ]);
    expect(entry).toBeDefined();

    writer.child.stdin.write('after losing the lock\n');
    const refusal = await writer.next();
    expect(refusal).toMatch(/^refused lock-lost: not committed: its lock file .* was replaced by pid \d+/);
    expect(refusal).toContain('nothing more is written from here');
    writer.child.stdin.write('and again\n');
    expect(await writer.next()).toMatch(/^refused lock-lost/);
    writer.child.stdin.end();
    await writer.exited;
    // The writer's close left the second tole's lock alone.
    expect(lockOwner(path).pid).toBe(process.pid);
    const before = snapshot(second);
    second.close();
    const reopened = openStore(path, { readOnly: true });
    expect(reopened.report.tornTail).toBeNull();
    expect(snapshot(reopened)).toEqual(before);
    reopened.close();
  });
});

describe('a lock naming pid 1 of another pid namespace, judged by pid 1 of this one', () => {
  it("is not taken for this process's own lock (two containers sharing a volume are both pid 1)", () => {
    const here: ProcessProbe = {
      pid: 1,
      host: 'box',
      bootId: () => 'boot',
      pidNamespace: () => 'pid:[200]',
      exists: () => true,
      startTime: () => '7',
      locate: () => ({ state: 'unseen' }),
    };
    const owner: LockOwner = {
      pid: 1,
      host: 'box',
      nonce: 'the-other-container',
      createdAt: 1,
      startTime: '7',
      bootId: 'boot',
      pidNamespace: 'pid:[100]',
    };
    expect(judgeLock(owner, here).state).toBe('unknown');
    expect(judgeLock(owner, { ...here, locate: () => ({ state: 'found', startTime: '7' }) }).state).toBe('held');
    expect(judgeLock(owner, { ...here, locate: () => ({ state: 'found', startTime: '9' }) }).state).toBe('stale');
    expect(judgeLock(owner, { ...here, locate: () => ({ state: 'absent' }) }).state).toBe('stale');
  });
});

describe('a writer whose lock file is removed or replaced', () => {
  it('refuses every later commit with lock-lost, in this process too', () => {
    const store = createStore(dir.path);
    const commitOne = () =>
      store.commit([
        {
          kind: 'entry',
          timestamp: store.now(),
          id: store.newEntryId(),
          parentId: null,
          type: 'user',
          payload: { text: 'x' },
        },
      ]);
    commitOne();
    spawnSync('rm', [lockPathFor(store.path)]);
    let thrown: unknown;
    try {
      commitOne();
    } catch (error) {
      thrown = error;
    }
    expect(isStorageError(thrown, 'lock-lost')).toBe(true);
    expect((thrown as Error).message).toContain('was removed');
    // Putting a file back under the name does not make it this writer's lock again.
    spawnSync('cp', [store.path, lockPathFor(store.path)]);
    expect(commitOne).toThrow(/lock file .* (removed|replaced)/);
    store.close();
  });
});
