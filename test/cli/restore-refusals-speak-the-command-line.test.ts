/**
 * `tole restore` asks the session's commands, as the screen does: a restore the session's state
 * does not allow is refused, and the refusal is said in the command line's words (what to run),
 * not the screen's (its tree and keys). Nothing is written when it is refused.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../src/cli/args';
import { runRestore } from '../../src/cli/restore-command';
import { seededRandom } from '../../src/core/clock';
import { NS } from '../../src/core/registers/namespaces';
import { AppendBatch } from '../../src/core/session/cursor';
import { SessionStore } from '../../src/core/storage/session-store';
import { tempDirs, type TempDirs } from '../support/agent-fixtures';
import { steppingClock } from '../support/storage-fixtures';

const made: TempDirs[] = [];
afterEach(() => {
  for (const dirs of made.splice(0)) dirs.remove();
});

/** A session made in its own workspace with one prompt, and a write the stop cut short when `cutShort`. */
function session(cutShort: boolean) {
  const dirs = tempDirs('tole-restore-refusals-');
  made.push(dirs);
  const workspace = dirs.root;
  const store = SessionStore.create(dirs.sessions, {
    clock: steppingClock(),
    random: seededRandom(3),
    cwd: workspace,
  });
  const batch = new AppendBatch(store);
  const prompt = batch.entry('user', { text: 'write a file' });
  if (cutShort) {
    const intent = batch.entry('tool_intent', {
      callId: 'w1',
      tool: 'write_file',
      input: { path: 'a.txt', content: 'x' },
      subject: 'a.txt',
      risk: 'Write',
      reason: 'writes a file',
      replay: 'idempotent',
      approval: { approved: true, by: 'yes' },
    });
    batch.register(NS.pending, 'w1', { entryId: intent, callId: 'w1', tool: 'write_file', approved: true });
  }
  store.commit(batch.build());
  const { path } = store;
  const lastSeq = store.lastSeq;
  store.close();
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: join(dirs.parent, 'home'), TOLE_HOME: dirs.home };
  return { path, prompt, lastSeq, workspace, env };
}

async function restore(s: ReturnType<typeof session>, entry: string, ...flags: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runRestore(parseArgs(['restore', s.path, '--entry', entry, ...flags]), {
    cwd: s.workspace,
    env: s.env,
    stdout,
    stderr,
  });
  return { code, stdout: out, stderr: err };
}

function lastSeqOf(path: string): number {
  const store = SessionStore.open(path, { clock: steppingClock(), random: seededRandom(4), readOnly: true });
  try {
    return store.lastSeq;
  } finally {
    store.close();
  }
}

describe('tole restore refused', () => {
  it('while a write a stop cut short is not settled: says to open the session first, and writes nothing', async () => {
    const s = session(true);
    const run = await restore(s, s.prompt);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `tole: a turn in this session was cut short and has calls not settled yet: open it once with tole --resume ${s.path}`,
    );
    expect(run.stdout).toBe('');
    expect(lastSeqOf(s.path)).toBe(s.lastSeq);
  });

  it('as a dry run while a write a stop cut short is not settled: refused as the restore would be, no plan shown', async () => {
    const s = session(true);
    const run = await restore(s, s.prompt, '--dry-run');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('a turn in this session was cut short and has calls not settled yet');
    expect(run.stdout).toBe('');
    expect(lastSeqOf(s.path)).toBe(s.lastSeq);
  });

  it('with --read-only: a usage error that points at --dry-run', () => {
    expect(() => parseArgs(['restore', 'x.jsonl', '--entry', 'e_1', '--read-only'])).toThrow(UsageError);
    expect(() => parseArgs(['restore', 'x.jsonl', '--entry', 'e_1', '--read-only'])).toThrow(/--dry-run/);
  });

  it('for an entry not in the session: says how to list the entries, not which key to press', async () => {
    const s = session(false);
    const run = await restore(s, 'e-nope');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `tole: no entry e-nope in session ${s.path}: list its entry ids with tole export ${s.path} --format json`,
    );
    expect(run.stderr).not.toMatch(/tree \(t\)/);
    expect(lastSeqOf(s.path)).toBe(s.lastSeq);
  });
});
