import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { startChatServer, type ChatServer } from '../../support/chat-server';
import { buildAgent, entriesOfType, eventLog, tempDirs, type TempDirs } from '../../support/agent-fixtures';
import { userGit } from '../../support/workspace-state';

let dirs: TempDirs;

beforeEach(() => {
  dirs = tempDirs('tole-checkpoint-');
});

afterEach(() => {
  dirs.remove();
});

describe('what a checkpoint holds', () => {
  it('lives under tole home, leaves out files over the size limit and ignored paths, and the plan says which were left out', async () => {
    userGit(dirs.root, 'init', '-q');
    writeFileSync(join(dirs.root, '.gitignore'), 'build/\n');
    mkdirSync(join(dirs.root, 'build'));
    writeFileSync(join(dirs.root, 'build', 'out.js'), 'built\n');
    mkdirSync(join(dirs.root, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(dirs.root, 'node_modules', 'dep', 'index.js'), 'dep\n');
    writeFileSync(join(dirs.root, 'big.bin'), Buffer.alloc(3000, 7));
    writeFileSync(join(dirs.root, 'small.txt'), 'small\n');
    const checkpoints = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root, maxFileBytes: 2000 });

    const taken = await checkpoints.take();
    if (!taken.ok) throw new Error(taken.reason);
    expect(checkpoints.directory.startsWith(join(dirs.home, 'checkpoints'))).toBe(true);
    // Its settings as git reads them: a work tree, no line-ending conversion, modes and symlinks
    // kept, paths unquoted, no gc but tole's own.
    const setting = (key: string): string =>
      userGit(dirs.root, `--git-dir=${checkpoints.directory}`, 'config', '--get', key).trim();
    expect(
      ['core.bare', 'core.autocrlf', 'core.filemode', 'core.symlinks', 'core.quotepath', 'gc.auto'].map(setting),
    ).toEqual(['false', 'false', 'true', 'true', 'false', '0']);
    expect(taken.leftOut).toEqual([{ path: 'big.bin', why: 'too-large', bytes: 3000 }]);

    rmSync(join(dirs.root, 'small.txt'));
    rmSync(join(dirs.root, 'big.bin'));
    rmSync(join(dirs.root, 'build'), { recursive: true });
    const plan = await checkpoints.plan(taken.id);
    // Only what the checkpoint holds comes back: the ignored build output and node_modules never were in it.
    expect(plan).toMatchObject({
      added: ['small.txt'],
      changed: [],
      removed: [],
      leftOut: [{ path: 'big.bin', why: 'too-large' }],
    });
    await checkpoints.restore(taken.id);
    expect(readFileSync(join(dirs.root, 'small.txt'), 'utf8')).toBe('small\n');
    expect(existsSync(join(dirs.root, 'big.bin'))).toBe(false);
    expect(existsSync(join(dirs.root, 'build'))).toBe(false);
    // The user's repository got no objects, no index and no refs from any of this.
    expect(userGit(dirs.root, 'count-objects')).toMatch(/^0 objects/);
    expect(existsSync(join(dirs.root, '.git', 'index'))).toBe(false);
  });

  it('a restore never removes a file its checkpoint left out for its size', async () => {
    writeFileSync(join(dirs.root, 'big.bin'), Buffer.alloc(3000, 1));
    const checkpoints = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root, maxFileBytes: 2000 });
    const first = await checkpoints.take();
    if (!first.ok) throw new Error(first.reason);
    writeFileSync(join(dirs.root, 'new.txt'), 'new\n');
    const plan = await checkpoints.restore(first.id);
    expect(plan.removed).toEqual(['new.txt']);
    expect(readFileSync(join(dirs.root, 'big.bin'))).toEqual(Buffer.alloc(3000, 1));
  });
});

describe('a git lock left by a killed tole', () => {
  it('is removed at once when no git runs for the directory, however fresh, so checkpoints go on working', async () => {
    writeFileSync(join(dirs.root, 'a.txt'), 'a\n');
    const checkpoints = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root });
    expect((await checkpoints.take()).ok).toBe(true);
    // A tole killed in update-ref (one killed in update-index left its scan's own index: own-index.ts).
    for (const lock of ['refs/tole/checkpoints.lock']) {
      writeFileSync(join(checkpoints.directory, lock), '');
      writeFileSync(join(dirs.root, 'a.txt'), `after ${lock}\n`);
      const taken = await checkpoints.take();
      expect(taken).toMatchObject({ ok: true });
      expect(existsSync(join(checkpoints.directory, lock))).toBe(false);
    }
  });

  it("is left alone while a git runs for the directory, and the failure shows git's whole message", async () => {
    writeFileSync(join(dirs.root, 'a.txt'), 'a\n');
    // Short waits for the held lock: the outcome is the same after tole's own 6.4 s of them.
    const checkpoints = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root, lockWaitsMs: [10, 10] });
    expect((await checkpoints.take()).ok).toBe(true);
    // A live, busy git on tole's directory (another tole's checkpoint in progress), holding the
    // ref: blocked opening a fifo no one writes. (An idle `cat-file --batch` waiting on its stdin
    // holds no lock, whichever tole's it is: git-locks.ts.)
    const fifo = join(dirs.outside, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const live = spawn('git', ['hash-object', fifo], {
      env: { PATH: process.env['PATH'], GIT_DIR: checkpoints.directory },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    // Running as git (past its exec) before tole looks for it in /proc.
    await once(live, 'spawn');
    const lock = join(checkpoints.directory, 'refs', 'tole', 'checkpoints.lock');
    writeFileSync(lock, '');
    try {
      writeFileSync(join(dirs.root, 'a.txt'), 'b\n');
      const taken = await checkpoints.take();
      expect(taken.ok).toBe(false);
      expect(existsSync(lock)).toBe(true);
      const reason = taken.ok ? '' : taken.reason;
      expect(reason).toContain(`Unable to create '${lock}': File exists.`);
      expect(reason).toContain('remove the file manually to continue');
    } finally {
      live.kill('SIGKILL');
    }
    rmSync(lock);
    expect((await checkpoints.take()).ok).toBe(true);
  });
});

describe('without a usable git, checkpoints are off and everything else works', () => {
  let server: ChatServer;
  beforeEach(async () => {
    server = await startChatServer({ defaultReply: { text: 'done' } });
  });
  afterEach(async () => {
    await server.close();
  });

  it('says once why, and the calls still run', async () => {
    const off = Checkpoints.create({
      home: dirs.home,
      workspaceRoot: dirs.root,
      gitBinary: join(dirs.outside, 'no-such-git'),
    });
    const { agent, store } = buildAgent({
      baseURL: server.url,
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      policy: { yes: true },
      deps: { checkpoints: off },
    });
    server.push(
      { toolCalls: [{ id: 'w1', name: 'write_file', arguments: JSON.stringify({ path: 'a.txt', content: 'a' }) }] },
      { toolCalls: [{ id: 'w2', name: 'write_file', arguments: JSON.stringify({ path: 'b.txt', content: 'b' }) }] },
    );
    const log = eventLog();
    await agent.runTurn('write two files', new AbortController().signal, log.emit);

    expect(readFileSync(join(dirs.root, 'a.txt'), 'utf8')).toBe('a');
    expect(readFileSync(join(dirs.root, 'b.txt'), 'utf8')).toBe('b');
    const notices = entriesOfType(store, 'notice').filter((e) => e.payload.source === 'checkpoint');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.payload.text).toMatch(/checkpoints are off: no usable git binary/);
    expect(log.events.filter((e) => e.type === 'notice' && /checkpoints are off/.test(e.text))).toHaveLength(1);
    expect(entriesOfType(store, 'tool_intent').every((e) => e.payload.checkpoint === undefined)).toBe(true);
    const restore = await agent.restoreFiles(entriesOfType(store, 'user')[0]!.id, () => {});
    expect(restore).toEqual({ ok: false, reason: expect.stringMatching(/checkpoints are off/) });
    store.close();
  });
});
