/**
 * `tole restore` says everything it does to the files, and where a restore can be made when it
 * cannot: a restore a stop cut short is run again to its end before the one asked for (it changes
 * files too, or fails and leaves them partly restored), so the user reads how it went; `--dry-run`
 * says one is waiting; and a session a running tole holds is restored in that tole, not by the
 * read-only open the lock's own words offer (that cannot restore).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { reportError } from '../../src/cli/report-error';
import { runRestore } from '../../src/cli/restore-command';
import { checkpointsFor } from '../../src/cli/wiring';
import { seededRandom } from '../../src/core/clock';
import { NS } from '../../src/core/registers/namespaces';
import { AppendBatch } from '../../src/core/session/cursor';
import type { PendingIntent } from '../../src/core/session/tool-step';
import { SessionStore } from '../../src/core/storage/session-store';
import { tempDirs, type TempDirs } from '../support/agent-fixtures';
import { steppingClock } from '../support/storage-fixtures';

const made: TempDirs[] = [];
afterEach(() => {
  for (const dirs of made.splice(0)) dirs.remove();
});

/**
 * A session whose restore to its prompt was cut short before it changed a file: notes.txt read
 * 'before' at the prompt (the checkpoint `target`, unless another is given) and reads 'after' now.
 */
async function cutShortRestore(target?: string) {
  const dirs = tempDirs('tole-restore-cut-short-');
  made.push(dirs);
  const workspace = dirs.root;
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: join(dirs.parent, 'home'), TOLE_HOME: dirs.home };
  const notes = join(workspace, 'notes.txt');
  writeFileSync(notes, 'before\n');
  const checkpoints = checkpointsFor(env, {}, workspace);
  const atPrompt = await checkpoints.take();
  writeFileSync(notes, 'after\n');
  const now = await checkpoints.take();
  if (!atPrompt.ok || !now.ok) throw new Error('checkpoints could not be taken');
  const store = SessionStore.create(dirs.sessions, { clock: steppingClock(), random: seededRandom(3), cwd: workspace });
  const batch = new AppendBatch(store);
  const prompt = batch.entry('user', { text: 'write the notes' });
  const restoreId = 'restore_2';
  const intent = batch.entry('restore', {
    restoreId,
    targetEntryId: prompt,
    target: target ?? atPrompt.id,
    checkpoint: now.id,
    added: 0,
    changed: 1,
    removed: 0,
  });
  batch.register(NS.pending, restoreId, {
    entryId: intent,
    callId: restoreId,
    tool: 'restore',
    approved: true,
    kind: 'restore',
  } satisfies PendingIntent);
  store.commit(batch.build());
  const { path } = store;
  store.close();
  return { path, prompt, intent, notes, workspace, env };
}

type Session = Awaited<ReturnType<typeof cutShortRestore>>;

async function restore(s: Session, entry: string, ...flags: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const io = { cwd: s.workspace, env: s.env, stdout, stderr };
  let code: number;
  try {
    code = await runRestore(parseArgs(['restore', s.path, '--entry', entry, ...flags]), io);
  } catch (error) {
    code = await reportError(error, { ...io, argv: [], stdin: process.stdin });
  }
  return { code, stdout: out, stderr: err };
}

function pendingOf(path: string): number {
  const store = SessionStore.open(path, { clock: steppingClock(), random: seededRandom(4), readOnly: true });
  try {
    return store.registers.entries(NS.pending).length;
  } finally {
    store.close();
  }
}

describe('tole restore says what else it did', () => {
  it('--dry-run says a restore a stop cut short waits; the restore runs it to its end first, and says so', async () => {
    const s = await cutShortRestore();
    const dry = await restore(s, s.intent, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(
      'tole: a restore a stop cut short is not finished, so the files may be partly restored: tole restore without --dry-run runs it again to its end first',
    );
    expect(readFileSync(s.notes, 'utf8')).toBe('after\n');
    expect(pendingOf(s.path)).toBe(1);

    const run = await restore(s, s.intent);
    expect(run.stderr).toContain(
      `tole: a restore a stop cut short was run again first: files restored to ${s.prompt}: 0 created, 1 overwritten, 0 removed`,
    );
    expect(pendingOf(s.path)).toBe(0);
    // Then the restore asked for (to the cut-short one's own entry): the files as they were when it began.
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('restored: 0 created, 1 overwritten, 0 removed');
    expect(readFileSync(s.notes, 'utf8')).toBe('after\n');
  });

  it('says so when the restore a stop cut short cannot be finished (the files may be partly restored)', async () => {
    const s = await cutShortRestore('f'.repeat(40));
    const run = await restore(s, s.intent);
    expect(run.stderr).toMatch(
      /tole: a restore a stop cut short was run again first: the restore failed part way: .*restore again/,
    );
  });
});

describe('tole restore of a session a running tole holds', () => {
  it('says to restore in that tole or close it, not to open it read-only', async () => {
    const s = await cutShortRestore();
    const holder = SessionStore.open(s.path, { clock: steppingClock(), random: seededRandom(5) });
    try {
      const run = await restore(s, s.prompt);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`tole: session ${s.path} is open in a running tole (pid ${process.pid} on `);
      expect(run.stderr).toContain('restore the files there (t for the tree, then u on the entry)');
      expect(run.stderr).not.toContain('--read-only');
      expect(readFileSync(s.notes, 'utf8')).toBe('after\n');
    } finally {
      holder.close();
    }
  });
});
