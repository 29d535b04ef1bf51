/**
 * A session's name (`/name`) is one committed register record: it survives replay, a torn tail
 * after it (a name change cut mid-write is dropped whole, the name before it stays), the SQLite
 * backend, `tole check`, export, and what `tole sessions` and the picker list.
 */
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src/cli/args';
import { runSessions } from '../../../src/cli/sessions-command';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { exportJson, exportMarkdown } from '../../../src/core/session/export';
import { summariseSession } from '../../../src/core/session/session-summary';
import { MAX_NAME_CHARS, nameSession, sessionName } from '../../../src/core/session/session-name';
import { checkSessionFile, formatCheckReport } from '../../../src/core/storage/check';
import { SessionStore } from '../../../src/core/storage/session-store';
import { AppendBatch } from '../../../src/core/session/cursor';
import { tempDirForTest } from '../../support/after-the-test';

function newSession(backend: 'jsonl' | 'sqlite' = 'jsonl', cwd = '/work/named'): SessionStore {
  const dir = tempDirForTest('tole-name-');
  return SessionStore.create(dir, { clock: systemClock, random: seededRandom(11), cwd, backend });
}

function reopen(path: string, readOnly = false): SessionStore {
  return SessionStore.open(path, { clock: systemClock, random: seededRandom(12), readOnly });
}

function prompt(store: SessionStore, text: string): void {
  const batch = new AppendBatch(store);
  batch.entry('user', { text });
  store.commit(batch.build());
}

describe('the session name', () => {
  it('is written as one register record, tidied and capped, and replays to the same name', () => {
    const store = newSession();
    prompt(store, 'plan the release');
    const before = readFileSync(store.path, 'utf8').split('\n').length;
    expect(nameSession(store, '  release\n  plan  ')).toBe('release plan');
    const lines = readFileSync(store.path, 'utf8').trimEnd().split('\n');
    expect(lines.length).toBe(before);
    expect(lines.at(-1)).toContain('"namespace":"fact.session","key":"name","value":"release plan"');
    // Naming it the same again writes nothing.
    const size = statSync(store.path).size;
    nameSession(store, 'release plan');
    expect(statSync(store.path).size).toBe(size);
    expect(nameSession(store, 'x'.repeat(500))).toHaveLength(MAX_NAME_CHARS);
    nameSession(store, 'release plan');
    store.close();

    const replayed = reopen(store.path, true);
    expect(sessionName(replayed)).toBe('release plan');
    expect(() => nameSession(replayed, 'other')).toThrow(/read-only/);
    replayed.close();
  });

  it('survives a torn tail: a rename cut mid-write is dropped whole and the name before it stays', () => {
    const store = newSession();
    prompt(store, 'first');
    nameSession(store, 'kept name');
    const whole = statSync(store.path).size;
    nameSession(store, 'the rename that tears');
    store.close();
    const bytes = readFileSync(store.path);
    // Cut the last commit (the rename) in the middle, as a crash mid-write leaves it.
    const cut = whole + Math.floor((bytes.length - whole) / 2);
    writeFileSync(store.path, bytes.subarray(0, cut));

    const checked = checkSessionFile(store.path);
    expect(checked.ok).toBe(true);
    expect(checked.tornTail).not.toBeNull();
    expect(checked.registers['fact.session']).toBe(1);
    expect(checked.name).toBe('kept name');
    expect(formatCheckReport(checked)).toContain('name:      kept name');

    const repaired = reopen(store.path);
    expect(repaired.report.tornTail?.repaired).toBe(true);
    expect(sessionName(repaired)).toBe('kept name');
    expect(statSync(store.path).size).toBe(whole);
    // Named again after the repair, and removed: each a committed record that replays.
    nameSession(repaired, 'after the repair');
    repaired.close();
    const again = reopen(store.path);
    expect(sessionName(again)).toBe('after the repair');
    expect(nameSession(again, '   ')).toBeNull();
    again.close();
    const last = reopen(store.path, true);
    expect(sessionName(last)).toBeNull();
    last.close();
  });

  it('is read back as plain text: escape sequences in a hostile file do not reach the terminal', () => {
    const store = newSession();
    prompt(store, 'first');
    expect(nameSession(store, 'a\x1b]0;pwned\x07 b\x9b2J')).toBe('a]0;pwned b2J');
    // Written by something else than /name: the register holds the raw text, the readers clean it.
    store.commit([{ kind: 'register', op: 'set', namespace: 'fact.session', key: 'name', value: 'x\x1b[2Jy\nz' }]);
    expect(sessionName(store)).toBe('x[2Jy z');
    store.close();
    expect(summariseSession({ path: store.path, header: store.header }, systemClock).name).toBe('x[2Jy z');
    // tole check shows the name as the screen and the listings do.
    expect(formatCheckReport(checkSessionFile(store.path))).toContain('name:      x[2Jy z\n');
  });

  it('a torn garbage line after the name does not take it', () => {
    const store = newSession();
    prompt(store, 'first');
    nameSession(store, 'steady');
    store.close();
    appendFileSync(store.path, '{"kind":"register","op":"set","namespace":"fact.sess');
    const repaired = reopen(store.path);
    expect(repaired.report.tornTail).not.toBeNull();
    expect(sessionName(repaired)).toBe('steady');
    repaired.close();
  });

  it('is kept by the SQLite backend', () => {
    let store: SessionStore;
    try {
      store = newSession('sqlite');
    } catch (error) {
      // The backend is optional (better-sqlite3 may not load on this Node): say so rather than pass.
      throw new Error(`the SQLite backend did not open: ${(error as Error).message}`);
    }
    prompt(store, 'in sqlite');
    nameSession(store, 'sqlite name');
    store.close();
    const replayed = reopen(store.path, true);
    expect(sessionName(replayed)).toBe('sqlite name');
    replayed.close();
  });

  it('shows in export, in what the picker lists, and in tole sessions', () => {
    const home = tempDirForTest('tole-name-home-');
    const cwd = tempDirForTest('tole-name-cwd-');
    mkdirSync(join(home, 'sessions'));
    const store = SessionStore.create(join(home, 'sessions'), {
      clock: systemClock,
      random: seededRandom(13),
      cwd,
    });
    prompt(store, 'what is the plan');
    nameSession(store, 'the plan');
    expect(exportMarkdown(store, null).split('\n')[0]).toBe(`# tole session ${store.header.id}: the plan`);
    expect(JSON.parse(exportJson(store)).registers['fact.session'].name).toBe('the plan');
    store.close();

    const summary = summariseSession({ path: store.path, header: store.header }, systemClock);
    expect(summary.name).toBe('the plan');
    expect(summary.firstPrompt).toBe('what is the plan');

    let out = '';
    const code = runSessions(parseArgs(['sessions']), {
      cwd,
      env: { HOME: home, TOLE_HOME: home, PATH: '/usr/bin:/bin' },
      stdout: { write: (chunk: string) => ((out += chunk), true) } as unknown as NodeJS.WritableStream,
    });
    expect(code).toBe(0);
    const [head, row] = out.split('\n');
    expect(head).toMatch(/cost +name +first prompt/);
    expect(row).toContain(store.header.id);
    expect(row).toMatch(/the plan +what is the plan/);
  });
});
