/**
 * A session whose head (`lane.head`) or a lane's leaf (`lane.leaf`) names an entry the file does
 * not hold was changed outside tole: `tole check` names the problem and what to do, a writable
 * open refuses it with the same words before anything is written after it (before, check called
 * it sound and the first commit failed with "names parent e_nope, which does not exist"), and a
 * read-only open still reads it.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSessionFile } from '../../../src/core/storage/check';
import { isStorageError } from '../../../src/core/storage/errors';
import type { DraftRecord } from '../../../src/core/storage/records';
import { main } from '../../../src/cli/main';
import { seededRandom } from '../../../src/core/clock';
import { SessionStore } from '../../../src/core/storage/session-store';
import { buildSession, openStore, steppingClock, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

const head = (value: unknown): DraftRecord => ({
  kind: 'register',
  op: 'set',
  namespace: 'lane.head',
  key: 'head',
  value,
});
const leaf = (lane: string, value: unknown): DraftRecord => ({
  kind: 'register',
  op: 'set',
  namespace: 'lane.leaf',
  key: lane,
  value,
});

/** A real session with `commits` committed after it, closed; its path. */
function sessionWith(...commits: DraftRecord[][]): string {
  const built = buildSession(dir.path);
  for (const commit of commits) built.store.commit(commit);
  built.store.close();
  return built.path;
}

/** What a writable open throws (the file unchanged by it), or null when it opens. */
function writableOpenRefusal(path: string, aside: number): string | null {
  const before = readFileSync(path);
  try {
    const store = SessionStore.open(path, {
      clock: steppingClock(),
      random: seededRandom(3),
      asideMinBytes: aside,
      lanesChecked: true,
    });
    store.close();
    return null;
  } catch (error) {
    if (!isStorageError(error)) throw error;
    expect(error.kind).toBe('corrupt');
    expect(readFileSync(path).equals(before)).toBe(true);
    return error.message;
  }
}

const REFUSED: readonly (readonly [string, DraftRecord[][], RegExp])[] = [
  [
    'a head naming a missing entry and lane',
    [[head({ lane: 'nope', entryId: 'e_nope' })]],
    /names entry e_nope, which is not in the file/,
  ],
  ['a head naming a missing entry on a real lane', [[head({ lane: 'main', entryId: 'e_99' })]], /names entry e_99/],
  ['a head that is a string', [[head('e_1')]], /its head \(register lane.head\) is "e_1", not an entry and its lane/],
  ['a head that is null', [[head(null)]], /is null, not an entry/],
  ['a head with no entry', [[head({ lane: 'main' })]], /not an entry and its lane/],
  ['a head whose entry is a number', [[head({ lane: 'main', entryId: 1 })]], /not an entry and its lane/],
  ['a head whose lane is missing', [[head({ entryId: 'e_1' })]], /not an entry and its lane/],
  ['a head naming an inherited name', [[head({ lane: 'main', entryId: '__proto__' })]], /names entry __proto__/],
  ['a head naming toString', [[head({ lane: 'main', entryId: 'toString' })]], /names entry toString/],
  [
    'a leaf naming a missing entry',
    [[leaf('b9', 'e_nope')]],
    /the leaf of lane b9 \(register lane.leaf\) names entry e_nope/,
  ],
  ['the main leaf moved to a missing entry', [[leaf('main', 'e_404')]], /lane main .* names entry e_404/],
  ['a leaf that is a number', [[leaf('b9', 7)]], /the leaf of lane b9 .* is 7, not an entry id/],
  [
    'a good head set later to a missing one',
    [[head({ lane: 'main', entryId: 'e_9' })], [head({ lane: 'main', entryId: 'e_gone' })]],
    /names entry e_gone/,
  ],
];

const SOUND: readonly (readonly [string, DraftRecord[][]])[] = [
  ['no head at all', []],
  ['a head on no entry (a new session checked out to its start)', [[head({ lane: 'main', entryId: null })]]],
  ['a head on an entry of a lane that has no leaf', [[head({ lane: 'branch-7', entryId: 'e_4' })]]],
  [
    'a missing head set back to a real entry',
    [[head({ lane: 'x', entryId: 'e_nope' })], [head({ lane: 'main', entryId: 'e_9' })]],
  ],
  [
    'a missing leaf deleted',
    [[leaf('b9', 'e_nope')], [{ kind: 'register', op: 'delete', namespace: 'lane.leaf', key: 'b9' }]],
  ],
];

describe('lane registers that name a missing entry', () => {
  it.each(
    REFUSED,
  )('%s: check names it and what to do, a writable open refuses it (both threads), read-only reads it', (_name, commits, said) => {
    const path = sessionWith(...commits);
    const report = checkSessionFile(path);
    expect(report.ok).toBe(false);
    expect(report.problem?.kind).toBe('corrupt');
    expect(report.problem?.message).toMatch(said);
    expect(report.problem?.message).toContain(`tole --resume ${path} --read-only`);
    expect(report.problem?.message).toContain('put back a copy of the file from before the change');
    for (const aside of [Number.POSITIVE_INFINITY, 0])
      expect(writableOpenRefusal(path, aside)).toBe(report.problem?.message);
    const reader = openStore(path, { readOnly: true });
    expect(reader.tree.size).toBe(report.entries);
    expect(report.entries).toBeGreaterThan(5);
    reader.close();
  });

  it.each(SOUND)('%s: sound, and the open appends after it', (_name, commits) => {
    const path = sessionWith(...commits);
    expect(checkSessionFile(path).problem).toBeNull();
    const store = SessionStore.open(path, { clock: steppingClock(), random: seededRandom(4), lanesChecked: true });
    store.commit([
      {
        kind: 'entry',
        timestamp: store.now(),
        id: store.newEntryId(),
        parentId: 'e_9',
        type: 'user',
        payload: { text: 'on' },
      },
    ]);
    store.close();
    expect(checkSessionFile(path).ok).toBe(true);
  });

  it('a refused open leaves the lock free: the file opens read-only and is checked again the same', () => {
    const path = sessionWith([head({ lane: 'main', entryId: 'e_nope' })]);
    const first = writableOpenRefusal(path, Number.POSITIVE_INFINITY);
    expect(first).not.toBeNull();
    expect(writableOpenRefusal(path, Number.POSITIVE_INFINITY)).toBe(first);
  });

  it('tole check and tole -p --resume say the same words, and the resume writes nothing', async () => {
    const path = sessionWith([head({ lane: 'nope', entryId: 'e_nope' })]);
    const cwd = join(dir.path, 'project');
    mkdirSync(cwd, { recursive: true });
    const run = async (argv: string[]): Promise<{ code: number; out: string }> => {
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      let out = '';
      stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      const env = { TOLE_HOME: join(dir.path, 'home'), OPENAI_API_KEY: 'unused' };
      const code = await main({ argv, env, cwd, stdout, stderr });
      return { code, out };
    };
    const words = `session ${path}: its head (register lane.head) names entry e_nope, which is not in the file`;
    const check = await run(['check', path]);
    expect(check.code).toBe(1);
    expect(check.out).toContain(`PROBLEM (corrupt): ${words}`);
    const before = readFileSync(path);
    const resume = await run(['-p', 'go on', '--resume', path, '--base-url', 'http://127.0.0.1:9/v1', '-m', 'm']);
    expect(resume.code).toBe(1);
    expect(resume.out).toContain(`tole: ${words}`);
    expect(resume.out).toContain('put back a copy of the file from before the change');
    expect(resume.out).not.toMatch(/names parent|internal error/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});
