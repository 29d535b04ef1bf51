import {
  appendFileSync,
  copyFileSync,
  readFileSync,
  renameSync,
  statSync,
  closeSync,
  openSync,
  truncateSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, entryCommit, openStore, snapshot, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

/**
 * Another program changes the session file while tole holds it (a sync tool or an editor saving by
 * rename, `sed -i`, a model's shell command, a user's `truncate`). tole's lock does not stop it;
 * tole must not go on acknowledging commits that no open reads back.
 */
const CHANGES = {
  'renamed over by a copy of itself': (path: string) => {
    copyFileSync(path, `${path}.copy`);
    renameSync(`${path}.copy`, path);
  },
  'removed, and written again under its name': (path: string) => {
    const bytes = readFileSync(path);
    unlinkSync(path);
    writeFileSync(path, bytes);
  },
  'cut by ten bytes': (path: string) => truncateSync(path, statSync(path).size - 10),
  'appended to': (path: string) => appendFileSync(path, 'not a commit\n'),
  // An editor saving in place, `dd conv=notrunc`: the same size, other bytes. Its time of last
  // write is set a second on, as a write in a later clock tick than tole's own leaves it (one in
  // the same tick is not told apart).
  'written in place, its size unchanged': (path: string) => {
    const fd = openSync(path, 'r+');
    try {
      writeSync(fd, Buffer.from('XXXX'), 0, 4, statSync(path).size - 12);
    } finally {
      closeSync(fd);
    }
    const { atime, mtimeMs } = statSync(path);
    utimesSync(path, atime, new Date(mtimeMs + 1000));
  },
} as const;

describe('a session file changed behind its writer', () => {
  for (const [name, change] of Object.entries(CHANGES)) {
    it(`${name}: the next commit and compaction are refused, and a reopen loses nothing acknowledged`, () => {
      const store = createStore(dir.path);
      store.commit(entryCommit(store, null, 'before the change'));
      const acknowledged = snapshot(store);
      change(store.path);

      expect(() => store.commit(entryCommit(store, 'e_1', 'after the change'))).toThrowError(
        expect.objectContaining({ kind: 'poisoned', message: expect.stringContaining('by another') }),
      );
      expect(snapshot(store), 'nothing taken in').toEqual(acknowledged);
      expect(() => store.commit(entryCommit(store, 'e_1', 'again'))).toThrowError(
        expect.objectContaining({ kind: 'poisoned', message: expect.stringContaining(`tole check ${store.path}`) }),
      );
      expect(() => store.compactStorage(true)).toThrowError(expect.objectContaining({ kind: 'poisoned' }));
      store.close();

      // What the other program did is its own: a cut last line or a line of its own reads as a torn
      // tail, copied aside and reported; every commit tole acknowledged before it is there.
      if (name === 'written in place, its size unchanged') {
        // Its last line no longer matches its checksum: read as a torn tail, never as a commit.
        const reopened = openStore(store.path);
        expect(reopened.report.tornTail).not.toBeNull();
        expect(reopened.entry('e_1')).toBeUndefined();
        reopened.close();
        return;
      }
      const reopened = openStore(store.path);
      const torn = name === 'cut by ten bytes' || name === 'appended to';
      expect(reopened.report.tornTail !== null, 'a torn tail reported').toBe(torn);
      if (name === 'cut by ten bytes') expect(reopened.entry('e_1')).toBeUndefined();
      else expect(snapshot(reopened)).toEqual(acknowledged);
      reopened.close();
    });
  }

  it('a compaction of its own does not count as a change: commits go on after it', () => {
    const store = createStore(dir.path);
    store.commit(entryCommit(store, null, 'one'));
    expect(store.compactStorage(true)).toBe(true);
    store.commit(entryCommit(store, 'e_1', 'two'));
    const after = snapshot(store);
    store.close();
    const reopened = openStore(store.path);
    expect(snapshot(reopened)).toEqual(after);
    reopened.close();
  });
});
