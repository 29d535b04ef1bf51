/**
 * What a disk error is said as: its code once ("not committed: ENOSPC ENOSPC: no space left on
 * device" said it twice), and a lock that cannot be made for a new session says that no session
 * was made and what to do then ("nothing in the session was changed" was said of a session that
 * did not exist yet).
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSessionFile } from '../../../src/core/storage/check';
import { describeIoError } from '../../../src/core/storage/errors';
import { type FileOps, nodeFileOps } from '../../../src/core/storage/file-ops';
import { faultyOps } from '../../support/fault-ops';
import { createStore, entryCommit, openStore, tempDir } from '../../support/storage-fixtures';
import { caughtStorageError, toldUser } from '../../support/storage-errors';

const dir = tempDir();
afterAll(() => dir.remove());

const times = (text: string, word: string): number => text.split(word).length - 1;

describe('an I/O error in a message', () => {
  it.each([
    [
      "node's own message (it begins with the code)",
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
      'ENOSPC: no space left on device, write',
    ],
    ['a message without its code', Object.assign(new Error('no room'), { code: 'ENOSPC' }), 'ENOSPC no room'],
    [
      'a message holding the code later',
      Object.assign(new Error('write failed (EIO)'), { code: 'EIO' }),
      'write failed (EIO)',
    ],
    ['no code', new Error('it broke'), 'it broke'],
    ['not an error at all', 'a string', 'a string'],
  ])('%s', (_name, error, said) => {
    expect(describeIoError(error)).toBe(said);
  });

  it('a commit the full disk refused says ENOSPC once, and what to do', async () => {
    const folder = join(dir.path, 'full-commit');
    mkdirSync(folder);
    const ops = faultyOps();
    const store = createStore(folder, ops);
    ops.writeFault = 'enospc-after-partial';
    const error = caughtStorageError(() => store.commit(entryCommit(store, null, 'x')));
    store.close();
    const text = await toldUser(error);
    expect(times(text, 'ENOSPC')).toBe(1);
    expect(text).toContain('not committed: ENOSPC: no space left on device, write while writing');
    expect(text).toContain(`free some space, then tole --resume ${store.path} goes on from the last step kept`);
  });

  it('a file check cannot read says its code once', () => {
    const ops: FileOps = {
      ...nodeFileOps,
      openSync: () => {
        throw Object.assign(new Error('EACCES: permission denied, open'), { code: 'EACCES' });
      },
    };
    const folder = join(dir.path, 'unreadable');
    mkdirSync(folder);
    const made = createStore(folder);
    made.close();
    const report = checkSessionFile(made.path, ops);
    expect(report.problem?.kind).toBe('unreadable');
    expect(report.problem?.message).toBeDefined();
    expect(times(report.problem!.message, 'EACCES')).toBe(1);
  });
});

describe('a lock that cannot be made', () => {
  for (const [code, says] of [
    ['EROFS', /read-only file system: set TOLE_HOME to a writable folder/i],
    ['ENOSPC', /the disk holding it is full: free some space, then start tole again/i],
    ['EDQUOT', /the disk holding it is full: free some space, then start tole again/i],
    ['EACCES', /cannot be written by this user: fix the folder's permissions, or set TOLE_HOME/i],
    ['EPERM', /cannot be written by this user/i],
    ['EIO', /\. Start tole again$/],
  ] as const) {
    const refusing: FileOps = {
      ...nodeFileOps,
      writeFileExclusive: () => {
        throw Object.assign(new Error(`${code}: refused, open`), { code });
      },
    };

    it(`for a new session (${code}) says no session was made, and nothing is left`, async () => {
      const folder = join(dir.path, `new-${code.toLowerCase()}`);
      mkdirSync(folder);
      const error = caughtStorageError(() => createStore(folder, refusing));
      expect(error.message).toMatch(/^the new session \S+\.jsonl was not made: its lock file \S+ could not be made/);
      expect(error.message).toMatch(/no session file was written/);
      expect(error.message).not.toMatch(/nothing in the session was changed|opened for writing|--read-only/);
      expect(error.message).toMatch(says);
      expect(times(error.message, code)).toBe(1);
      const text = await toldUser(error);
      expect(text).toBe(`tole: ${error.message}\n`);
      expect(readdirSync(folder)).toEqual([]);
    });

    it(`for a session that exists (${code}) still says nothing in it was changed`, () => {
      const folder = join(dir.path, `open-${code.toLowerCase()}`);
      mkdirSync(folder);
      const made = createStore(folder);
      made.close();
      const error = caughtStorageError(() => openStore(made.path, { ops: refusing }));
      expect(error.message).toMatch(new RegExp(`^the session ${made.path} was not opened for writing`));
      expect(error.message).toMatch(/nothing in the session was changed/);
      expect(times(error.message, code)).toBe(1);
    });
  }
});
