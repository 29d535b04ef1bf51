/**
 * A child runs a real turn whose one call is edit_file, with a preToolUse hook that changes the
 * same file after the call was prepared, and SIGKILLs itself at a point of the effect sandwich
 * (TOLE_CRASH_AT). Between the crash and the resume the file may be changed again (an editor);
 * the resume must apply the edit at most once, recognising its own result in the file as it is.
 */
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FaultPoint } from '../../src/core/session/agent-deps';
import { SessionStore } from '../../src/core/storage/session-store';
import { seededRandom, systemClock } from '../../src/core/clock';
import { NS } from '../../src/core/registers/namespaces';
import { buildAgent, onlySessionFile, resultsFor, tempDirs, type TempDirs } from '../support/agent-fixtures';
import { crashFixture } from '../support/crash-fixture';

const CALL_ID = 'call_edit';
const EDIT = { path: 'a.txt', old_text: 'A\n', new_text: 'A\nB\n' };

const crash = crashFixture({ defaultReply: { text: 'continued' } });

/** `A\nC\n`, the edit, a hook appending `D\n` before it runs, and a SIGKILL at `crashAt`. */
async function crashMidEdit(crashAt: FaultPoint): Promise<{ dirs: TempDirs; file: string; session: string }> {
  const dirs = tempDirs('tole-edit-crash-');
  const file = join(dirs.root, 'a.txt');
  writeFileSync(file, 'A\nC\n');
  crash.server.push({ toolCalls: [{ id: CALL_ID, name: 'edit_file', arguments: JSON.stringify(EDIT) }] });
  await crash.crashTurn(
    {
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      prompt: 'add B after A',
      interactive: false,
      rules: ['edit_file'],
      hooks: { preToolUse: "printf 'D\\n' >> a.txt" },
    },
    crashAt,
  );
  return { dirs, file, session: onlySessionFile(dirs.sessions) };
}

/** Resumes the crashed session with the built-ins and returns the edit's one settlement. */
async function resume(dirs: TempDirs, session: string): Promise<{ outcome: string; content: string }> {
  const { agent, store } = buildAgent({
    baseURL: crash.server.url,
    sessionsDir: dirs.sessions,
    workspaceRoot: dirs.root,
    sessionPath: session,
    policy: { rules: ['edit_file'] },
  });
  expect(await agent.resume(new AbortController().signal, () => {})).toBe(1);
  store.close();
  const reader = SessionStore.open(session, { clock: systemClock, random: seededRandom(3), readOnly: true });
  try {
    const results = resultsFor(reader, CALL_ID);
    expect(results).toHaveLength(1);
    expect(reader.registers.entries(NS.pending)).toHaveLength(0);
    const [only] = results;
    return { outcome: String(only?.payload.outcome), content: String(only?.payload.content) };
  } finally {
    reader.close();
  }
}

describe('edit_file killed before its settlement is applied once on resume', () => {
  it('a hook changed the file before the edit ran: the resume recognises the edit and does not run it again', async () => {
    const { dirs, file, session } = await crashMidEdit('before-settlement');
    expect(readFileSync(file, 'utf8')).toBe('A\nB\nC\nD\n');
    const settled = await resume(dirs, session);
    expect(settled.outcome).toBe('ok');
    expect(settled.content).toContain('not run again');
    expect(readFileSync(file, 'utf8')).toBe('A\nB\nC\nD\n');
  });

  it('an editor changed a distant line between the crash and the resume: still recognised, not run again', async () => {
    const { dirs, file, session } = await crashMidEdit('before-settlement');
    appendFileSync(file, `${'filler line\n'.repeat(20)}E\n`);
    const settled = await resume(dirs, session);
    expect(settled.outcome).toBe('ok');
    expect(readFileSync(file, 'utf8')).toBe(`A\nB\nC\nD\n${'filler line\n'.repeat(20)}E\n`);
  });

  it('the edit’s new text was pasted elsewhere after it was applied: still one edit, not run again', async () => {
    const { dirs, file, session } = await crashMidEdit('before-settlement');
    appendFileSync(file, 'A\nB\n');
    const settled = await resume(dirs, session);
    expect(settled.outcome).toBe('ok');
    expect(readFileSync(file, 'utf8')).toBe('A\nB\nC\nD\nA\nB\n');
  });

  it('an editor rewrote the text around the edit: the outcome is unknown, settled as such, the file left alone', async () => {
    const { dirs, file, session } = await crashMidEdit('before-settlement');
    writeFileSync(file, 'A\nB\nX\nD\n');
    const settled = await resume(dirs, session);
    expect(settled.outcome).toBe('interrupted');
    expect(settled.content).toContain('outcome unknown');
    expect(readFileSync(file, 'utf8')).toBe('A\nB\nX\nD\n');
  });
});

describe('edit_file killed before its settlement, then undone by the user, is not made again on resume', () => {
  const undo: Record<string, (file: string) => void> = {
    // git checkout, an editor saving by rename: a new file in place, as it was before the edit
    'put back by a new file': (file) => {
      writeFileSync(`${file}.new`, 'A\nC\n');
      renameSync(`${file}.new`, file);
    },
    // the edit taken out in place, the hook's line kept
    'undone in place': (file) => writeFileSync(file, 'A\nC\nD\n'),
  };
  for (const [how, revert] of Object.entries(undo)) {
    it(`${how}: the outcome is unknown, settled as such, and the file stays as the user left it`, async () => {
      const { dirs, file, session } = await crashMidEdit('before-settlement');
      expect(readFileSync(file, 'utf8')).toBe('A\nB\nC\nD\n');
      revert(file);
      const left = readFileSync(file, 'utf8');
      const settled = await resume(dirs, session);
      expect(settled.outcome).toBe('interrupted');
      expect(settled.content).toContain('outcome unknown');
      expect(settled.content).toContain('replaced since');
      expect(readFileSync(file, 'utf8')).toBe(left);
    });
  }
});

describe('edit_file killed before its effect runs it once on resume', () => {
  it('the hook’s line and an editor’s distant change are kept, and the edit is applied once', async () => {
    const { dirs, file, session } = await crashMidEdit('after-intent');
    appendFileSync(file, 'E\n');
    const settled = await resume(dirs, session);
    expect(settled.outcome).toBe('ok');
    expect(readFileSync(file, 'utf8')).toBe('A\nB\nC\nD\nE\n');
  });

  it('an editor saving by rename before the resume makes it unknown (the safe side): it may have been the edit undone', async () => {
    const { dirs, file, session } = await crashMidEdit('after-intent');
    writeFileSync(`${file}.new`, 'A\nC\nD\nE\n');
    renameSync(`${file}.new`, file);
    const settled = await resume(dirs, session);
    expect(settled.outcome).toBe('interrupted');
    expect(readFileSync(file, 'utf8')).toBe('A\nC\nD\nE\n');
  });
});
