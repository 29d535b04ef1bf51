import { appendFileSync, copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeCommit, storedCrcOf } from '../../../src/core/storage/line-codec';
import type { DraftRecord, StoredRecord } from '../../../src/core/storage/records';
import { createStore, entryCommit, linesOf, openStore, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

const entry = (id: unknown, parentId: unknown, type = 'user'): DraftRecord =>
  ({ kind: 'entry', timestamp: 1, id, parentId, type, payload: { text: id } }) as DraftRecord;

/**
 * Commits with problems, as a writer that skipped the checks would store them. Replay checks and
 * applies record by record; these hold it to the words of the whole-commit check a live commit
 * runs, including where one record has two problems or a later record breaks an earlier one.
 */
const bad: [string, (last: string) => DraftRecord[]][] = [
  ['an id written before', (last) => [entry(last, null)]],
  ['a parent that does not exist', () => [entry('e_new', 'e_missing')]],
  ['itself as its parent', () => [entry('e_self', 'e_self')]],
  ['a repeated id and a missing parent at once', (last) => [entry(last, 'e_missing')]],
  ['a repeated id and an unknown type at once', (last) => [entry(last, null, 'telepathy')]],
  ['a missing parent and an unknown type at once', () => [entry('e_new', 'e_missing', 'telepathy')]],
  ['an unknown type', (last) => [entry('e_new', last, 'telepathy')]],
  ['an id that is not a string', () => [entry(7, null)]],
  ['the same id twice in one commit', () => [entry('e_twin', null), entry('e_twin', null)]],
  [
    'a good entry, then a register of no known namespace',
    (last) => [entry('e_new', last), { kind: 'register', op: 'set', namespace: 'nope', key: 'k', value: 1 }],
  ],
  [
    'a register, then an entry under a parent later in the same commit',
    () => [
      { kind: 'register', op: 'set', namespace: 'lane.leaf', key: 'main', value: 'e_child' },
      entry('e_child', 'e_parent'),
      entry('e_parent', null),
    ],
  ],
];

describe('a replayed commit with a problem', () => {
  const store = createStore(dir.path);
  let last: string | null = null;
  for (const text of ['one', 'two']) {
    const drafts = entryCommit(store, last, text);
    last = (drafts[0] as { id: string }).id;
    store.commit(drafts);
  }
  store.close();
  const good = store.path;
  const lastId = last!;

  it.each(bad)('is refused in the words a live commit is refused in: %s', (name, make) => {
    const live = openStore(good);
    let liveProblem = '';
    try {
      live.commit(make(lastId));
    } catch (error) {
      liveProblem = (error as Error).message.replace(/^not committed: /, '');
    }
    live.close();
    expect(liveProblem, 'a live commit refuses it too').not.toBe('');

    const file = join(dir.path, `bad-${bad.findIndex(([n]) => n === name)}.jsonl`);
    copyFileSync(good, file);
    const lines = linesOf(readFileSync(file));
    const seqBase = lines.length * 10;
    const records = make(lastId).map(
      (draft, i) => Object.assign({ kind: draft.kind, seq: seqBase + i }, draft) as StoredRecord,
    );
    appendFileSync(file, encodeCommit(records, storedCrcOf(lines.at(-1)!)!).bytes);
    expect(() => openStore(file, { readOnly: true })).toThrowError(`line ${lines.length + 1}: ${liveProblem}`);
  });
});
