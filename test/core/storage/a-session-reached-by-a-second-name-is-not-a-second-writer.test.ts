/**
 * tole's lock is a file beside the session's name, so a session reached by a second name (a
 * symlink to it, or a hard link: a repository or a sync can hand one over) let a second tole take
 * a second lock and write the same file: its commit went in, and the first tole's next commit was
 * refused as "written to by another process" (the user's running session stopped), with a window
 * in which both append. A symlink also had tole write wherever it points, outside its sessions
 * folder. And compaction wrote its temp file through whatever stood at its fixed name
 * (`.S.jsonl.compact.tmp`, opened 'w+'): a symlink planted there had tole truncate and overwrite
 * the file it named, then rename the link over the session. Now a writable open refuses a name
 * that is a symlink or a file with more than one name, and compaction makes its temp file anew.
 */
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, entryCommit, openStore, snapshot, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

let n = 0;
const fresh = (name: string): string => join(dir.path, `${name}-${++n}`);

describe('a session reached by a second name', () => {
  for (const how of ['symlink', 'hard link'] as const)
    it(`a ${how} to a session another tole holds: the open by it is refused, nothing written, and the holder goes on`, () => {
      const store = createStore(dir.path);
      store.commit(entryCommit(store, null, 'one'));
      const other = `${fresh(how.replace(' ', '-'))}.jsonl`;
      if (how === 'symlink') symlinkSync(store.path, other);
      else linkSync(store.path, other);
      const before = readFileSync(store.path);
      expect(() => openStore(other)).toThrowError(
        expect.objectContaining({
          kind: 'unreadable',
          message: expect.stringContaining(
            how === 'symlink' ? `${other} is a symbolic link` : `has 2 names (hard links)`,
          ),
        }),
      );
      expect(readFileSync(store.path).equals(before)).toBe(true);
      expect(existsSync(`${other}.lock`)).toBe(false);
      // The holder's next commit goes in: no second writer came.
      store.commit(entryCommit(store, 'e_1', 'two'));
      // Read-only, the second name still reads.
      const reader = openStore(other, { readOnly: true });
      expect(snapshot(reader)).toEqual(snapshot(store));
      reader.close();
      store.close();
    });

  it('a hard link made while no tole runs: neither name is opened for writing, and a copy is', () => {
    const store = createStore(dir.path);
    store.commit(entryCommit(store, null, 'one'));
    store.close();
    const other = `${fresh('linked')}.jsonl`;
    linkSync(store.path, other);
    for (const name of [store.path, other])
      expect(() => openStore(name)).toThrowError(expect.objectContaining({ kind: 'unreadable' }));
    const copy = `${fresh('copy')}.jsonl`;
    writeFileSync(copy, readFileSync(store.path));
    const opened = openStore(copy);
    opened.commit(entryCommit(opened, 'e_1', 'in the copy'));
    opened.close();
    expect(readFileSync(store.path).equals(readFileSync(other))).toBe(true);
  });

  it('a symlink pointing out of the sessions folder is not written through', () => {
    const outside = tempDir('tole-outside-');
    try {
      const store = createStore(outside.path);
      store.commit(entryCommit(store, null, 'the user keeps this'));
      store.close();
      const before = readFileSync(store.path);
      const inside = `${fresh('pointing-out')}.jsonl`;
      symlinkSync(store.path, inside);
      expect(() => openStore(inside)).toThrowError(expect.objectContaining({ kind: 'unreadable' }));
      expect(readFileSync(store.path).equals(before)).toBe(true);
      expect(existsSync(`${store.path}.lock`)).toBe(false);
    } finally {
      outside.remove();
    }
  });

  it('control: a folder reached by a symlink shares the lock, so the second open is refused as locked', () => {
    const real = fresh('real-folder');
    mkdirSync(real);
    const linked = fresh('linked-folder');
    symlinkSync(real, linked);
    const store = createStore(real);
    store.commit(entryCommit(store, null, 'one'));
    expect(() => openStore(join(linked, basename(store.path)))).toThrowError(
      expect.objectContaining({ kind: 'locked' }),
    );
    store.close();
    const again = openStore(join(linked, basename(store.path)));
    again.commit(entryCommit(again, 'e_1', 'two'));
    again.close();
  });
});

describe('compaction', () => {
  for (const planted of ['a symlink to a file outside', 'a dangling symlink', 'a file a crashed compaction left'])
    it(`with ${planted} at its temp name: nothing outside is written, the session compacts`, () => {
      const store = createStore(dir.path);
      for (let i = 0; i < 3; i++) store.commit(entryCommit(store, i === 0 ? null : `e_${i}`, `turn ${i}`));
      const temp = join(dirname(store.path), `.${basename(store.path)}.compact.tmp`);
      const victim = fresh('victim.txt');
      if (planted === 'a symlink to a file outside') {
        writeFileSync(victim, 'the user keeps this\n');
        symlinkSync(victim, temp);
      } else if (planted === 'a dangling symlink') symlinkSync(victim, temp);
      else writeFileSync(temp, 'half a compaction');
      const before = snapshot(store);
      expect(store.compactStorage(true)).toBe(true);
      expect(snapshot(store).entries).toEqual(before.entries);
      if (planted === 'a symlink to a file outside') expect(readFileSync(victim, 'utf8')).toBe('the user keeps this\n');
      else expect(existsSync(victim)).toBe(false);
      expect(lstatSync(store.path).isSymbolicLink()).toBe(false);
      expect(existsSync(temp)).toBe(false);
      store.close();
      const reopened = openStore(store.path);
      expect(snapshot(reopened).entries).toEqual(before.entries);
      reopened.close();
    });
});
