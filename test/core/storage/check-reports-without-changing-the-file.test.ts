import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSessionFile, formatCheckReport } from '../../../src/core/storage/check';
import { nodeFileOps, type FileOps } from '../../../src/core/storage/file-ops';
import { lockPathFor } from '../../../src/core/storage/lock-file';
import { buildSession, createStore, entryCommit, lineStarts, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

/** Real reads; any call that could change a file fails the test. */
const readOnlyOps: FileOps = {
  ...nodeFileOps,
  openSync: (path, flags, mode) => {
    if (flags !== 'r') throw new Error(`check opened ${path} with flags ${flags}`);
    return nodeFileOps.openSync(path, flags, mode);
  },
  writeSync: () => {
    throw new Error('check wrote');
  },
  ftruncateSync: () => {
    throw new Error('check truncated');
  },
  fdatasyncSync: () => {
    throw new Error('check synced');
  },
  fsyncSync: () => {
    throw new Error('check synced');
  },
  renameSync: () => {
    throw new Error('check renamed');
  },
  unlinkSync: () => {
    throw new Error('check unlinked');
  },
  writeFileExclusive: () => {
    throw new Error('check took a lock');
  },
};

describe('checkSessionFile', () => {
  const built = buildSession(dir.path);
  built.store.commit(entryCommit(built.store, 'e_1', 'a branch', 'b1'));
  built.store.close();
  const whole = readFileSync(built.path);

  it('reports a sound file: header, entries, registers per namespace, lanes with leaves, seq range, usage rows', () => {
    const report = checkSessionFile(built.path, readOnlyOps);
    expect(report.ok).toBe(true);
    expect(report.problem).toBeNull();
    expect(report.header?.id).toBe(built.path.split('/').at(-1)!.replace('.jsonl', ''));
    expect(report.entries).toBe(9);
    expect(report.entriesByType).toEqual({ user: 8, notice: 1 });
    expect(report.registers).toEqual({ 'fact.label': 2, 'lane.leaf': 2 });
    expect(report.lanes).toEqual([
      { lane: 'main', leaf: 'e_9', pathLength: 7, leafExists: true },
      { lane: 'b1', leaf: 'e_11', pathLength: 2, leafExists: true },
    ]);
    expect(report.seq).toEqual({ first: 1, last: built.states.at(-1)!.lastSeq + 2 });
    expect(report.usageRows).toBe(2);
    expect(report.commitLines).toBe(lineStarts(whole).length - 1);
    expect(report.bytes).toBe(whole.length);
    expect(report.tornTail).toBeNull();
    const text = formatCheckReport(report);
    expect(text).toMatch(/^session file: .*\nsound\n/);
    expect(text).toContain('lane:      b1 -> e_11 (2 entries from the root)');
    expect(text).not.toMatch(/\u001b\[/);
  });

  it('reports a torn tail that a writable open would repair, leaving the file as it is', () => {
    const file = join(dir.path, 'torn.jsonl');
    const torn = Buffer.concat([whole, Buffer.from('{"c":"00000000","r":{"kind":"en')]);
    writeFileSync(file, torn);
    const report = checkSessionFile(file, readOnlyOps);
    expect(report.ok).toBe(true);
    expect(report.tornTail).toMatchObject({
      line: lineStarts(whole).length + 1,
      offset: whole.length,
      bytes: 31,
      reason: expect.stringContaining('no newline'),
    });
    expect(formatCheckReport(report)).toContain(`torn tail: line ${lineStarts(whole).length + 1}, 31 bytes`);
    expect(readFileSync(file).equals(torn)).toBe(true);
  });

  it('names the first problem: file, line, what is wrong, and its kind', () => {
    const file = join(dir.path, 'corrupt.jsonl');
    const bad = Buffer.from(whole);
    const line4 = lineStarts(whole)[3]!;
    bad[line4 + 30]! ^= 0x04;
    writeFileSync(file, bad);
    const report = checkSessionFile(file, readOnlyOps);
    expect(report.ok).toBe(false);
    expect(report.problem).toMatchObject({
      file,
      line: 4,
      kind: 'corrupt',
      message: expect.stringContaining('line 4: checksum mismatch'),
    });
    expect(report.commitLines).toBe(2);
    expect(formatCheckReport(report)).toContain('PROBLEM (corrupt) at line 4:');
    expect(readFileSync(file).equals(bad)).toBe(true);
  });

  it('reports a newer storage version and a missing file by kind', () => {
    const file = join(dir.path, 'v9.jsonl');
    writeFileSync(file, whole.toString('utf8').replace('"storageVersion":1', '"storageVersion":9'));
    expect(checkSessionFile(file).problem).toMatchObject({ kind: 'version', line: 1 });
    expect(checkSessionFile(join(dir.path, 'nope.jsonl')).problem).toMatchObject({ kind: 'not-found', line: null });
  });

  it('works while another opener holds the lock, without touching it', () => {
    const store = createStore(dir.path);
    store.commit(entryCommit(store, null, 'held'));
    const lock = readFileSync(lockPathFor(store.path));
    const report = checkSessionFile(store.path, readOnlyOps);
    expect(report.ok).toBe(true);
    expect(report.entries).toBe(1);
    expect(readFileSync(lockPathFor(store.path)).equals(lock)).toBe(true);
    expect(statSync(store.path).size).toBe(store.sizeBytes);
    store.close();
  });
});
