/**
 * A child runs a real turn whose one call is write_file of a file that does not exist yet, and
 * SIGKILLs itself at a point of the effect sandwich (TOLE_CRASH_AT). Between the crash and the
 * resume the user may delete the new file. The resume must never make it a second time on the
 * approval given before the crash: missing again is "not done" only when the call surely never
 * made it, else settled as interrupted, outcome unknown, saying what to do.
 */
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { NS } from '../../src/core/registers/namespaces';
import type { FaultPoint } from '../../src/core/session/agent-deps';
import { SessionStore } from '../../src/core/storage/session-store';
import {
  buildAgent,
  chatRequests,
  onlySessionFile,
  resultsFor,
  tempDirs,
  type TempDirs,
} from '../support/agent-fixtures';
import { crashFixture } from '../support/crash-fixture';
import { untilFolderAtRest } from '../support/folder-at-rest';

const CALL_ID = 'call_new';
const WRITE = { path: 'new.txt', content: 'made by tole\n' };

const crash = crashFixture({ defaultReply: { text: 'continued' } });

/** The write of `new.txt` into an empty workspace at rest, approved by an allow rule, and a SIGKILL at `crashAt`. */
async function crashMidWrite(crashAt: FaultPoint): Promise<{ dirs: TempDirs; file: string; session: string }> {
  const dirs = tempDirs('tole-new-file-crash-');
  await untilFolderAtRest(dirs.root);
  crash.server.push({ toolCalls: [{ id: CALL_ID, name: 'write_file', arguments: JSON.stringify(WRITE) }] });
  await crash.crashTurn(
    {
      sessionsDir: dirs.sessions,
      workspaceRoot: dirs.root,
      prompt: 'make new.txt',
      interactive: false,
      rules: ['write_file'],
    },
    crashAt,
  );
  return { dirs, file: join(dirs.root, 'new.txt'), session: onlySessionFile(dirs.sessions) };
}

/** Resumes the crashed session with the built-ins; returns the write's one settlement and what the model read of it. */
async function resume(
  dirs: TempDirs,
  session: string,
): Promise<{ outcome: string; content: string; modelRead: string[] }> {
  const { agent, store } = buildAgent({
    baseURL: crash.server.url,
    sessionsDir: dirs.sessions,
    workspaceRoot: dirs.root,
    sessionPath: session,
    policy: { rules: ['write_file'] },
  });
  expect(await agent.resume(new AbortController().signal, () => {})).toBe(1);
  await agent.runTurn('go on', new AbortController().signal, () => {});
  store.close();
  const modelRead = (chatRequests(crash.server).at(-1)?.body?.messages ?? [])
    .filter((m) => m.role === 'tool' && m['tool_call_id'] === CALL_ID)
    .map((m) => String(m.content));
  const reader = SessionStore.open(session, { clock: systemClock, random: seededRandom(3), readOnly: true });
  try {
    const results = resultsFor(reader, CALL_ID);
    expect(results).toHaveLength(1);
    expect(reader.registers.entries(NS.pending)).toHaveLength(0);
    const [only] = results;
    return { outcome: String(only?.payload.outcome), content: String(only?.payload.content), modelRead };
  } finally {
    reader.close();
  }
}

describe('write_file of a new file, killed before its settlement', () => {
  it('the user deleted the new file before the resume: not made again; settled as interrupted, outcome unknown, saying what to do', async () => {
    const { dirs, file, session } = await crashMidWrite('before-settlement');
    expect(readFileSync(file, 'utf8')).toBe(WRITE.content);
    unlinkSync(file);
    const settled = await resume(dirs, session);
    expect(settled.outcome).toBe('interrupted');
    expect(settled.content).toContain('outcome unknown');
    expect(settled.content).toContain('new.txt was not there when the call was prepared and is not there now');
    expect(settled.content).toContain('Check whether new.txt should exist and write it again if so');
    expect(settled.modelRead).toEqual([settled.content]);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dirs.root)).toEqual([]);
  });

  it('the user deleted it and put another file beside it: still not made again', async () => {
    const { dirs, file, session } = await crashMidWrite('before-settlement');
    unlinkSync(file);
    writeFileSync(join(dirs.root, 'other.txt'), 'the user');
    const settled = await resume(dirs, session);
    expect(settled.outcome).toBe('interrupted');
    expect(existsSync(file)).toBe(false);
  });

  it('left alone: recognised as done, not run again', async () => {
    const { dirs, file, session } = await crashMidWrite('before-settlement');
    const settled = await resume(dirs, session);
    expect(settled.outcome).toBe('ok');
    expect(settled.content).toContain('not run again');
    expect(readFileSync(file, 'utf8')).toBe(WRITE.content);
  });
});

describe('write_file of a new file, killed before its effect', () => {
  for (const crashAt of ['after-intent', 'during-effect'] as const) {
    it(`${crashAt}: the folder untouched since, so the call surely never made the file: made once on resume`, async () => {
      const { dirs, file, session } = await crashMidWrite(crashAt);
      expect(existsSync(file)).toBe(false);
      const settled = await resume(dirs, session);
      expect(settled.outcome).toBe('ok');
      expect(settled.content).toContain('Created new.txt');
      expect(readFileSync(file, 'utf8')).toBe(WRITE.content);
      expect(readdirSync(dirs.root)).toEqual(['new.txt']);
    });
  }

  it('after-intent, then someone else made a file in the folder: unknown (the safe side), nothing made', async () => {
    const { dirs, file, session } = await crashMidWrite('after-intent');
    writeFileSync(join(dirs.root, 'other.txt'), 'an editor');
    const settled = await resume(dirs, session);
    expect(settled.outcome).toBe('interrupted');
    expect(settled.content).toContain('changed since the call was prepared');
    expect(existsSync(file)).toBe(false);
  });
});
