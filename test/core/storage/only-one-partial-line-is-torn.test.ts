import {
  appendFileSync,
  openSync,
  closeSync,
  ftruncateSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSessionFile, formatCheckReport } from '../../../src/core/storage/check';
import { type FileOps, nodeFileOps } from '../../../src/core/storage/file-ops';
import { MAX_TORN_LINE_BYTES } from '../../../src/core/storage/jsonl-replay';
import { buildSession, openStore, snapshot, tempDir } from '../../support/storage-fixtures';

const dir = tempDir('tole-one-torn-line-');
afterAll(() => dir.remove());

const built = buildSession(dir.path);
built.store.close();
const whole = readFileSync(built.path);
const committed = built.states.length - 1;

function sessionWith(name: string, tail: Buffer | number): string {
  const file = join(dir.path, name);
  writeFileSync(file, whole);
  if (typeof tail === 'number') {
    // A sparse tail of zeros: a gigabyte costs nothing on disk.
    const fd = openSync(file, 'r+');
    ftruncateSync(fd, whole.length + tail);
    closeSync(fd);
  } else appendFileSync(file, tail);
  return file;
}

describe('a bad tail that no torn write could have left', () => {
  it('refuses a gigabyte of garbage after the last line, naming its offset and size, in check and on open, having read little of it', () => {
    const file = sessionWith('gigabyte.jsonl', 1024 ** 3);
    // Every byte the check reads: the garbage is given up on past the largest line, not read whole.
    let read = 0;
    const counting: FileOps = {
      ...nodeFileOps,
      readSync: (fd, buffer, offset, length, position) => {
        const n = nodeFileOps.readSync(fd, buffer, offset, length, position);
        read += n;
        return n;
      },
    };
    const report = checkSessionFile(file, counting);
    expect(read).toBeLessThan(whole.length + 3 * MAX_TORN_LINE_BYTES);
    expect(report.ok).toBe(false);
    expect(report.problem).toMatchObject({ kind: 'corrupt', line: whole.toString('latin1').split('\n').length });
    expect(report.problem!.message).toContain(
      `the ${1024 ** 3} bytes from offset ${whole.length} to the end are more than the largest commit line`,
    );
    expect(formatCheckReport(report)).not.toContain('sound');
    expect(() => openStore(file)).toThrow(/corrupt, not torn; nothing was changed/);
    expect(statSync(file).size).toBe(whole.length + 1024 ** 3);
  });

  it('refuses one line without a newline that is longer than the largest commit line', () => {
    const file = sessionWith('long.jsonl', Buffer.alloc(MAX_TORN_LINE_BYTES + 1, 0x78));
    expect(() => openStore(file)).toThrow(
      `the ${MAX_TORN_LINE_BYTES + 1} bytes from offset ${whole.length} to the end are more than`,
    );
    expect(statSync(file).size).toBe(whole.length + MAX_TORN_LINE_BYTES + 1);
  });

  it('refuses text lines appended by hand, and keeps every byte of them', () => {
    const added = Buffer.from('a note I typed\nand a second line\n');
    const file = sessionWith('typed.jsonl', added);
    expect(checkSessionFile(file).problem?.message).toContain(
      `the ${added.length} bytes from offset ${whole.length} to the end span 2 lines`,
    );
    expect(() => openStore(file)).toThrow(/span 2 lines, and a torn write leaves at most one partial line/);
    expect(readFileSync(file)).toEqual(Buffer.concat([whole, added]));
    expect(readdirSync(dir.path).filter((name) => name.startsWith('typed.jsonl.torn-'))).toEqual([]);
  });
});

describe('one partial final line (what a torn append leaves)', () => {
  it('is copied aside to <file>.torn-<time>, fsynced, before it is cut', () => {
    const partial = Buffer.from('{"c":"0123abcd","r":{"kind":"entry","seq":99,"payload":{"text":"half');
    const file = sessionWith('partial.jsonl', partial);
    const store = openStore(file);
    const torn = store.report.tornTail!;
    expect(torn).toMatchObject({ offset: whole.length, bytes: partial.length, repaired: true });
    expect(torn.savedTo).toMatch(/partial\.jsonl\.torn-\d{8}T\d{6}\.\d{3}Z$/);
    expect(readFileSync(torn.savedTo!)).toEqual(partial);
    expect(statSync(file).size).toBe(whole.length);
    expect(snapshot(store)).toEqual(built.states[committed]);
    store.close();
  });

  it('is the largest tail allowed when it is as long as the largest commit line', () => {
    const file = sessionWith('largest.jsonl', Buffer.alloc(MAX_TORN_LINE_BYTES, 0x78));
    const store = openStore(file, { readOnly: true });
    expect(store.report.tornTail).toMatchObject({ offset: whole.length, bytes: MAX_TORN_LINE_BYTES, repaired: false });
    store.close();
  });
});
