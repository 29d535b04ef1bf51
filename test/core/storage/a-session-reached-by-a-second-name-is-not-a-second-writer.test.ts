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
 * One second name is tole's own: pull and convert link a session into place from a temp name and
 * then remove it, so a crash between the two left a pulled or converted session refused for
 * writing; that name, still naming the same file, is removed on open.
 */
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/clock';
import { linkedTempNameOf } from '../../../src/core/storage/session-name';
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

describe("a crashed pull's or convert's temp name (they link a session into place, then remove the temp)", () => {
  /** A session in a folder of its own, closed, with `extra` names made beside it by `link`. */
  function sessionWith(
    names: (path: string) => string[],
    how: 'link' | 'copy' = 'link',
  ): { path: string; extra: string[] } {
    const folder = fresh('own');
    mkdirSync(folder);
    const store = createStore(folder);
    store.commit(entryCommit(store, null, 'one'));
    store.close();
    const extra = names(store.path);
    for (const name of extra)
      if (how === 'link') linkSync(store.path, name);
      else writeFileSync(name, readFileSync(store.path));
    return { path: store.path, extra };
  }

  it("tole's own temp name of the same file: removed, and the session opens for writing", () => {
    const { path, extra } = sessionWith((at) => [linkedTempNameOf(at, seededRandom(99))]);
    expect(lstatSync(path).nlink).toBe(2);
    const opened = openStore(path);
    opened.commit(entryCommit(opened, 'e_1', 'two'));
    opened.close();
    expect(existsSync(extra[0]!)).toBe(false);
    expect(lstatSync(path).nlink).toBe(1);
    expect(snapshot(openStore(path, { readOnly: true })).entries).toHaveLength(2);
  });

  for (const [what, nameOf] of [
    ['eleven hex digits', (at: string) => join(dirname(at), `.abcdef01234-${basename(at)}`)],
    ['capital hex digits', (at: string) => join(dirname(at), `.ABCDEF012345-${basename(at)}`)],
    ["another session's name", (at: string) => join(dirname(at), `.abcdef012345-x${basename(at)}`)],
    ['a name after it', (at: string) => join(dirname(at), `.abcdef012345-${basename(at)}.bak`)],
    ['no dot first', (at: string) => join(dirname(at), `abcdef012345-${basename(at)}`)],
  ] as const)
    it(`a second name that is not tole's temp name (${what}): refused, both names kept`, () => {
      const { path, extra } = sessionWith((at) => [nameOf(at)]);
      expect(() => openStore(path)).toThrowError(expect.objectContaining({ kind: 'unreadable' }));
      expect(existsSync(extra[0]!)).toBe(true);
      expect(lstatSync(path).nlink).toBe(2);
    });

  it("tole's temp name beside a third name: refused, nothing removed", () => {
    const { path, extra } = sessionWith((at) => [linkedTempNameOf(at, seededRandom(7)), `${at}.mine`]);
    expect(() => openStore(path)).toThrowError(
      expect.objectContaining({ message: expect.stringContaining('has 3 names') }),
    );
    for (const name of extra) expect(existsSync(name)).toBe(true);
  });

  it("tole's temp name holding another file (a copy), while the session has a second name elsewhere: refused, the copy kept", () => {
    const outside = tempDir('tole-outside-');
    try {
      const { path, extra } = sessionWith((at) => [linkedTempNameOf(at, seededRandom(8))], 'copy');
      linkSync(path, join(outside.path, 'keep.jsonl'));
      expect(() => openStore(path)).toThrowError(expect.objectContaining({ kind: 'unreadable' }));
      expect(existsSync(extra[0]!)).toBe(true);
      expect(existsSync(join(outside.path, 'keep.jsonl'))).toBe(true);
    } finally {
      outside.remove();
    }
  });

  it("a symlink at tole's temp name: refused, the link kept", () => {
    const { path } = sessionWith(() => []);
    const temp = linkedTempNameOf(path, seededRandom(9));
    symlinkSync(path, temp);
    linkSync(path, `${path}.second`);
    expect(() => openStore(path)).toThrowError(expect.objectContaining({ kind: 'unreadable' }));
    expect(lstatSync(temp).isSymbolicLink()).toBe(true);
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
