import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeCommit, encodeHeader, headerCrc } from '../../../src/core/storage/line-codec';
import type { SessionHeader } from '../../../src/core/storage/records';
import { openStore, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

const header: SessionHeader = {
  v: 1,
  kind: 'header',
  id: '1700000000000000000-abcdef',
  storageVersion: 1,
  createdAt: 1,
  cwd: '/w',
  lineCrc: 'crc32-chained',
};

/** A correctly chained file: what a newer tole could have written. */
function writeSession(name: string, head: object, commits: readonly unknown[]): string {
  const headBytes = encodeHeader(head as SessionHeader);
  let crc = headerCrc(headBytes.subarray(0, -1));
  const lines = [headBytes];
  for (const commit of commits) {
    const line = encodeCommit(commit as never, crc);
    lines.push(line.bytes);
    crc = line.crc;
  }
  const path = join(dir.path, name);
  writeFileSync(path, Buffer.concat(lines));
  return path;
}

const user = (seq: number, id: string) => ({
  kind: 'entry',
  seq,
  timestamp: 1,
  id,
  parentId: null,
  type: 'user',
  payload: { text: 'hi' },
});

describe('a session file this tole does not understand', () => {
  it('is refused when its storage version is newer, with a message that says to upgrade', () => {
    const path = writeSession('v2.jsonl', { ...header, storageVersion: 2 }, [user(1, 'e_1')]);
    const bytes = readFileSync(path);
    expect(() => openStore(path)).toThrowError(
      expect.objectContaining({ kind: 'version', details: expect.objectContaining({ line: 1 }) }),
    );
    expect(() => openStore(path)).toThrowError(
      /storage version 2 is newer than this tole \(which reads version 1\): upgrade tole/,
    );
    expect(() => openStore(path, { readOnly: true })).toThrowError(expect.objectContaining({ kind: 'version' }));
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('is refused when its line checksum format is unknown', () => {
    const path = writeSession('crc64.jsonl', { ...header, lineCrc: 'crc64' }, []);
    expect(() => openStore(path)).toThrowError(
      expect.objectContaining({ kind: 'version', message: expect.stringContaining('crc64') }),
    );
  });

  it('is refused, naming the line, when a record has an unknown kind', () => {
    const path = writeSession('kind.jsonl', header, [
      user(1, 'e_1'),
      { kind: 'telemetry', seq: 2, data: {} },
      user(3, 'e_3'),
    ]);
    expect(() => openStore(path)).toThrowError(
      expect.objectContaining({ kind: 'corrupt', details: expect.objectContaining({ line: 3 }) }),
    );
    expect(() => openStore(path)).toThrowError(/line 3: unknown record kind "telemetry" \(written by a newer tole\?\)/);
  });

  it('is refused, naming the line, even when the unknown record is in the last line of a transaction', () => {
    const path = writeSession('kind-last.jsonl', header, [
      user(1, 'e_1'),
      [user(2, 'e_2'), { kind: 'telemetry', seq: 3 }],
    ]);
    expect(() => openStore(path)).toThrowError(
      expect.objectContaining({ kind: 'corrupt', details: expect.objectContaining({ line: 3 }) }),
    );
  });

  it('is refused when an entry has an unknown type or a register an unknown namespace', () => {
    const entryType = writeSession('type.jsonl', header, [{ ...user(1, 'e_1'), type: 'hologram' }]);
    expect(() => openStore(entryType)).toThrowError(/line 2: entry e_1 has unknown type "hologram"/);
    const namespace = writeSession('ns.jsonl', header, [
      { kind: 'register', op: 'set', seq: 1, namespace: 42, key: 'k', value: 1 },
    ]);
    expect(() => openStore(namespace)).toThrowError(
      expect.objectContaining({ kind: 'corrupt', details: expect.objectContaining({ line: 2 }) }),
    );
  });

  it('is refused when seq does not increase', () => {
    const path = writeSession('seq.jsonl', header, [user(5, 'e_1'), user(5, 'e_2')]);
    expect(() => openStore(path)).toThrowError(/line 3: seq 5 does not increase/);
  });

  it('opens when it is what this tole writes (the refusals above are for the content)', () => {
    const path = writeSession('fine.jsonl', header, [
      user(1, 'e_1'),
      [user(2, 'e_2'), { kind: 'register', op: 'set', seq: 3, namespace: 'lane.leaf', key: 'main', value: 'e_2' }],
    ]);
    const store = openStore(path);
    expect(store.lastSeq).toBe(3);
    store.close();
  });
});
