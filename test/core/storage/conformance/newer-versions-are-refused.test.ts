import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { StorageBackend } from '../../../../src/core/storage/backends';
import { encodeCommit, encodeHeader, headerCrc, LINE_PREFIX_BYTES } from '../../../../src/core/storage/line-codec';
import type { SessionHeader } from '../../../../src/core/storage/records';
import { loadSqliteDriver } from '../../../../src/core/storage/sqlite-driver';
import { entryCommit, openStore, tempDir } from '../../../support/storage-fixtures';
import { BACKENDS, createIn, diskState, skipUnavailable } from './backends';

const dir = tempDir();
afterAll(() => dir.remove());

/** A sound session whose storage version then reads `version`, as a newer (or a foreign) tole could have written it. */
function sessionWithVersion(backend: StorageBackend, version: number): string {
  const store = createIn(dir.path, backend);
  store.commit(entryCommit(store, null, 'written by some tole'));
  store.close();
  if (backend === 'sqlite') {
    const db = new (loadSqliteDriver())(store.path);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'storageVersion'").run(String(version));
    db.close();
    return store.path;
  }
  const [headerLine, ...lines] = readFileSync(store.path, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const head = encodeHeader({ ...(JSON.parse(headerLine!) as SessionHeader), storageVersion: version });
  let crc = headerCrc(head.subarray(0, -1));
  const out = [head];
  for (const line of lines) {
    const encoded = encodeCommit(JSON.parse(line.slice(LINE_PREFIX_BYTES, -1)), crc);
    out.push(encoded.bytes);
    crc = encoded.crc;
  }
  writeFileSync(store.path, Buffer.concat(out));
  return store.path;
}

describe.each(BACKENDS)('%s backend: a storage version this tole does not read', (backend) => {
  if (skipUnavailable(backend)) return;

  it('is refused when newer, writable or read-only, with a message that says to upgrade, and the file is not touched', () => {
    const path = sessionWithVersion(backend, 2);
    const disk = diskState(path);
    expect(() => openStore(path)).toThrowError(expect.objectContaining({ kind: 'version' }));
    expect(() => openStore(path)).toThrowError(
      /storage version 2 is newer than this tole \(which reads version 1\): upgrade tole/,
    );
    expect(() => openStore(path, { readOnly: true })).toThrowError(expect.objectContaining({ kind: 'version' }));
    expect(diskState(path)).toEqual(disk);
  });

  it('is refused when unknown (older than any tole wrote)', () => {
    const path = sessionWithVersion(backend, 0);
    expect(() => openStore(path)).toThrowError(
      expect.objectContaining({
        kind: 'version',
        message: expect.stringContaining('storage version 0 is unknown to this tole'),
      }),
    );
  });

  it('opens when it is the version this tole writes (the refusals above are for the version)', () => {
    const path = sessionWithVersion(backend, 1);
    const store = openStore(path);
    expect(store.tree.size).toBe(1);
    store.close();
  });
});
