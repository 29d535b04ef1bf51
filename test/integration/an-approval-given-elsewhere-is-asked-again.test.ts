/**
 * A child runs a real turn whose one call is write_file, approved (by the policy, or by the
 * user's key), and SIGKILLs itself after the intent (TOLE_CRASH_AT=after-intent, or during-effect
 * for the key, which is asked after the intent): the call is pending with its approval. Resumed where it was approved, it runs; resumed elsewhere (another
 * machine, user or tole home: a session file copied or pulled from the team server), the
 * approval is none: the call is asked again, or denied where no one can be asked.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Decision } from '../../src/core/approval/approver';
import { seededRandom, systemClock } from '../../src/core/clock';
import { NS } from '../../src/core/registers/namespaces';
import { approvalPlace } from '../../src/core/session/approval-place';
import type { PendingIntent } from '../../src/core/session/tool-step';
import { SessionStore } from '../../src/core/storage/session-store';
import { buildAgent, onlySessionFile, resultsFor, tempDirs, type TempDirs } from '../support/agent-fixtures';
import { answering } from '../support/answering-approver';
import { startChatServer, type ChatServer } from '../support/chat-server';
import type { ChildConfig } from '../support/crash-turn-child';
import { untilFolderAtRest } from '../support/folder-at-rest';
import { runChild } from '../support/test-children';

const CALL_ID = 'call_w';
const ELSEWHERE = 'bob(1001)@another-host:/home/bob/.tole';

let server: ChatServer;
const created: TempDirs[] = [];

beforeAll(async () => {
  server = await startChatServer({ defaultReply: { text: 'continued' } });
});

afterAll(async () => {
  await server.close();
  for (const dirs of created) dirs.remove();
});

/** A write_file call approved before the crash (by the allow rule, or by the user's key when `interactive`), pending. */
async function crashAfterApproval(interactive: boolean): Promise<{ dirs: TempDirs; file: string; session: string }> {
  const dirs = tempDirs('tole-elsewhere-');
  created.push(dirs);
  // A resume makes the new note only once the guard can prove the crash came before it: its folder unchanged since it came to rest.
  await untilFolderAtRest(dirs.root);
  const write = { path: 'note.txt', content: 'written on the first approval\n' };
  server.push({ toolCalls: [{ id: CALL_ID, name: 'write_file', arguments: JSON.stringify(write) }] });
  const config: ChildConfig = {
    baseURL: server.url,
    sessionsDir: dirs.sessions,
    workspaceRoot: dirs.root,
    prompt: 'write the note',
    interactive,
    rules: ['write_file'],
  };
  const run = await runChild('crash-turn-child', [JSON.stringify(config)], {
    // The key is asked after the intent: killed as the effect starts, before the write reaches the disk.
    env: { ...process.env, TOLE_CRASH_AT: interactive ? 'during-effect' : 'after-intent' },
  });
  expect(run.signal, run.stderr).toBe('SIGKILL');
  const session = onlySessionFile(dirs.sessions);
  const reader = SessionStore.open(session, { clock: systemClock, random: seededRandom(3), readOnly: true });
  try {
    const [[, cell] = []] = reader.registers.entries(NS.pending);
    expect(cell?.value).toMatchObject({ approved: true, approvedAt: approvalPlace() });
  } finally {
    reader.close();
  }
  return { dirs, file: join(dirs.root, 'note.txt'), session };
}

/** Resumes at `place` (the test's own by default) with `answer` from the user, or headless; the call's one settlement. */
async function resumeAt(
  dirs: TempDirs,
  session: string,
  options: { place?: string; answer?: Decision },
): Promise<{ outcome: string; content: string; asked: number }> {
  const user = options.answer ? answering(options.answer) : null;
  const { agent, store } = buildAgent({
    baseURL: server.url,
    sessionsDir: dirs.sessions,
    workspaceRoot: dirs.root,
    sessionPath: session,
    approver: user?.approver ?? null,
    policy: { rules: ['write_file'], interactive: user !== null },
    ...(options.place ? { deps: { place: options.place } } : {}),
  });
  expect(await agent.resume(new AbortController().signal, () => {})).toBe(1);
  store.close();
  const reader = SessionStore.open(session, { clock: systemClock, random: seededRandom(3), readOnly: true });
  try {
    const results = resultsFor(reader, CALL_ID);
    expect(results).toHaveLength(1);
    expect(reader.registers.entries(NS.pending)).toHaveLength(0);
    const [only] = results;
    return {
      outcome: String(only?.payload.outcome),
      content: String(only?.payload.content),
      asked: user?.asked.length ?? 0,
    };
  } finally {
    reader.close();
  }
}

describe('a pending call approved elsewhere is not run on that approval', () => {
  it('resumed where it was approved, it runs without asking (the approval is this place’s)', async () => {
    const { dirs, file, session } = await crashAfterApproval(false);
    const settled = await resumeAt(dirs, session, {});
    expect(settled.outcome).toBe('ok');
    expect(readFileSync(file, 'utf8')).toBe('written on the first approval\n');
  });

  for (const interactive of [false, true]) {
    const by = interactive ? "the user's key" : 'an allow rule';
    it(`approved by ${by} elsewhere, resumed headless: denied with what to do, nothing written`, async () => {
      const { dirs, file, session } = await crashAfterApproval(interactive);
      const settled = await resumeAt(dirs, session, { place: ELSEWHERE });
      expect(settled.outcome).toBe('denied');
      expect(settled.content).toContain('not here');
      expect(settled.content).toContain('interactive tole');
      expect(existsSync(file)).toBe(false);
    });
  }

  it('resumed elsewhere with someone to ask: asked again, runs after yes, and the approval is recorded as this place’s', async () => {
    const { dirs, file, session } = await crashAfterApproval(false);
    const settled = await resumeAt(dirs, session, { place: ELSEWHERE, answer: { approved: true, by: 'user' } });
    expect(settled.asked).toBe(1);
    expect(settled.outcome).toBe('ok');
    expect(readFileSync(file, 'utf8')).toBe('written on the first approval\n');
  });

  it('resumed elsewhere and denied there: settled denied, nothing written', async () => {
    const { dirs, file, session } = await crashAfterApproval(false);
    const settled = await resumeAt(dirs, session, {
      place: ELSEWHERE,
      answer: { approved: false, by: 'user', reason: 'not on this machine' },
    });
    expect(settled.asked).toBe(1);
    expect(settled.outcome).toBe('denied');
    expect(existsSync(file)).toBe(false);
  });

  it('a pending approval of an older tole (no place recorded) is read as given elsewhere: denied headless', async () => {
    const { dirs, file, session } = await crashAfterApproval(false);
    const writer = SessionStore.open(session, { clock: systemClock, random: seededRandom(4) });
    try {
      const [[key, cell] = []] = writer.registers.entries(NS.pending);
      const { approvedAt: _, ...older } = cell?.value as PendingIntent;
      writer.commit([{ kind: 'register', op: 'set', namespace: NS.pending, key: String(key), value: older }]);
    } finally {
      writer.close();
    }
    const settled = await resumeAt(dirs, session, {});
    expect(settled.outcome).toBe('denied');
    expect(settled.content).toContain('did not record where');
    expect(existsSync(file)).toBe(false);
  });
});
