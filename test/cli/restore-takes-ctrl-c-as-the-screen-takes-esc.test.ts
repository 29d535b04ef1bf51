/**
 * `tole restore` takes Ctrl-C (SIGINT) and SIGTERM as the screen takes Esc: before the files are
 * written the restore stops (nothing written, the session holds only a notice, exit 130 or 143);
 * once they are being written it goes on to its end and says so at once, and its result follows.
 * Drives the built dist/tole.js with a git wrapper first on its path that waits at one step until
 * the test lets it go; every wait is on a file the wrapper writes or on tole's output.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { checkpointsFor } from '../../src/cli/wiring';
import { seededRandom } from '../../src/core/clock';
import { AppendBatch } from '../../src/core/session/cursor';
import { SessionStore } from '../../src/core/storage/session-store';
import { tempDirForTest } from '../support/after-the-test';
import { ensureBuilt, startBuiltTole } from '../support/built-tole';
import { fileAppears } from '../support/file-appears';
import { steppingClock } from '../support/storage-fixtures';

beforeAll(() => ensureBuilt(), 300_000);

const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

/** A git that runs the real one, except at `step`: there it says it waits (the file `waiting`) and waits for the file `go`. */
function waitingGit(step: string) {
  const dir = tempDirForTest('tole-waiting-git-');
  writeFileSync(
    join(dir, 'git'),
    `#!/bin/sh
case " $* " in *" ${step} "*)
  : > '${dir}/waiting.tmp'; mv '${dir}/waiting.tmp' '${dir}/waiting'
  while [ ! -e '${dir}/go' ]; do sleep 0.05; done;; esac
exec '${realGit}' "$@"
`,
  );
  chmodSync(join(dir, 'git'), 0o755);
  return { dir, waiting: () => fileAppears(join(dir, 'waiting')), go: () => writeFileSync(join(dir, 'go'), '') };
}

/** A session whose prompt was checkpointed with notes.txt reading 'before'; it reads 'after' now. */
async function session() {
  const root = tempDirForTest('tole-restore-signal-');
  const workspace = join(root, 'workspace');
  spawnSync('mkdir', ['-p', workspace, join(root, 'sessions'), join(root, 'home')]);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: join(root, 'home'), TOLE_HOME: join(root, 'tole') };
  const notes = join(workspace, 'notes.txt');
  writeFileSync(notes, 'before\n');
  const checkpoints = checkpointsFor(env, {}, workspace);
  const atPrompt = await checkpoints.take();
  checkpoints.close();
  if (!atPrompt.ok) throw new Error(atPrompt.reason);
  writeFileSync(notes, 'after\n');
  const store = SessionStore.create(join(root, 'sessions'), {
    clock: steppingClock(),
    random: seededRandom(5),
    cwd: workspace,
  });
  const batch = new AppendBatch(store);
  const prompt = batch.entry('user', { text: 'write the notes' });
  batch.entry('tool_intent', {
    callId: 'call_1',
    tool: 'write_file',
    input: {},
    subject: 'notes.txt',
    risk: 'Write',
    reason: '',
    replay: 'idempotent',
    approval: { approved: true, by: 'yes' },
    checkpoint: atPrompt.id,
  });
  store.commit(batch.build());
  const { path } = store;
  store.close();
  return { path, prompt, notes, workspace, env };
}

function restoring(s: Awaited<ReturnType<typeof session>>, gitDir: string) {
  const started = startBuiltTole(['restore', s.path, '--entry', s.prompt], {
    cwd: s.workspace,
    env: { ...s.env, PATH: `${gitDir}:${s.env.PATH}` },
  });
  let stderr = '';
  started.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { ...started, stderr: () => stderr };
}

/** The session's entries, read as tole reads them, with their notices' words. */
function entries(path: string): { type: string; text?: string }[] {
  const store = SessionStore.open(path, { clock: steppingClock(), random: seededRandom(6), readOnly: true });
  try {
    return [...store.tree.all()].map((e) =>
      e.type === 'notice' ? { type: e.type, text: e.payload.text } : { type: e.type },
    );
  } finally {
    store.close();
  }
}

describe('tole restore, stopped by a signal', () => {
  it('before the files are written: Ctrl-C stops it, nothing is written, and it says so', async () => {
    const s = await session();
    const git = waitingGit('update-ref');
    const run = restoring(s, git.dir);
    await git.waiting();
    run.child.kill('SIGINT');
    const ended = await run.done;
    expect(ended.code).toBe(130);
    expect(ended.stderr).toContain('tole: Ctrl-C: stopping the restore before any file is written');
    expect(ended.stderr).toContain('interrupted by the user before any file was written: nothing was restored');
    expect(readFileSync(s.notes, 'utf8')).toBe('after\n');
    expect(entries(s.path).map((e) => e.type)).toEqual(['user', 'tool_intent', 'notice']);
  });

  it('while the files are written: SIGTERM does not stop it; it says so at once and finishes whole', async () => {
    const s = await session();
    const git = waitingGit('checkout');
    const run = restoring(s, git.dir);
    await git.waiting();
    run.child.kill('SIGTERM');
    await vi.waitFor(() => expect(run.stderr()).toContain('tole: SIGTERM: the restore writes its files to its end'), {
      timeout: 30_000,
      interval: 20,
    });
    git.go();
    const ended = await run.done;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toMatch(/restored: 0 created, 1 overwritten, 0 removed \(to undo it: tole restore/);
    expect(readFileSync(s.notes, 'utf8')).toBe('before\n');
    const after = entries(s.path);
    expect(after.map((e) => e.type)).toEqual(['user', 'tool_intent', 'restore', 'notice', 'restore_result']);
    expect(after[3]!.text).toMatch(/^SIGTERM came while the files were being written: the restore goes on to its end/);
  });
});
