import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/clock';
import { buildSession, entryCommit, openStore, snapshot, tempDir, testSeed } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

const seed = testSeed('garbage tails');
const random = seededRandom(seed);

function randomBytes(length: number, newlines: boolean): Buffer {
  const bytes = Buffer.from(random.bytes(length));
  for (let i = 0; i < bytes.length; i++) {
    if (!newlines && bytes[i] === 0x0a) bytes[i] = 0x0b;
    if (newlines && i % 97 === 50) bytes[i] = 0x0a;
  }
  return bytes;
}

describe('a session file with a tail of zeros or garbage after its last whole line', () => {
  const built = buildSession(dir.path);
  built.store.close();
  const whole = readFileSync(built.path);
  const lastLineStart = whole.lastIndexOf(0x0a, whole.length - 2) + 1;
  const committed = built.states.length - 1;

  const tails: { name: string; bytes: () => Buffer; base: Buffer; expected: number }[] = [
    { name: '1 zero byte', bytes: () => Buffer.alloc(1), base: whole, expected: committed },
    { name: '4096 zero bytes', bytes: () => Buffer.alloc(4096), base: whole, expected: committed },
    { name: 'a newline alone', bytes: () => Buffer.from('\n'), base: whole, expected: committed },
    { name: 'random garbage without newlines', bytes: () => randomBytes(777, false), base: whole, expected: committed },
    {
      name: 'zeros after a half-written last line',
      bytes: () => Buffer.alloc(512),
      base: whole.subarray(0, lastLineStart + 30),
      expected: committed - 1,
    },
    {
      name: 'garbage without newlines after a half-written last line',
      bytes: () => randomBytes(900, false),
      base: whole.subarray(0, lastLineStart + 30),
      expected: committed - 1,
    },
    {
      name: 'a prefix of a commit line',
      bytes: () => Buffer.from('{"c":"0123abcd","r":{"kind":"entry","se'),
      base: whole,
      expected: committed,
    },
  ];

  it.each(tails)('treats it as torn and repairs it: $name (seed printed above)', ({ bytes, base, expected }) => {
    const file = join(dir.path, 'tail.jsonl');
    writeFileSync(file, base);
    const tail = bytes();
    appendFileSync(file, tail);
    const goodBytes = base.lastIndexOf(0x0a) + 1;

    const store = openStore(file);
    expect(snapshot(store)).toEqual(built.states[expected]);
    expect(store.report.tornTail).toMatchObject({
      offset: goodBytes,
      bytes: base.length - goodBytes + tail.length,
      repaired: true,
    });
    expect(statSync(file).size).toBe(goodBytes);
    expect(readFileSync(store.report.tornTail!.savedTo!)).toEqual(Buffer.concat([base.subarray(goodBytes), tail]));

    const leaf = store.registers.get<string>('lane.leaf', 'main')!;
    store.commit(entryCommit(store, leaf, 'written after the repair'));
    const state = snapshot(store);
    store.close();
    const reopened = openStore(file);
    expect(reopened.report.tornTail).toBeNull();
    expect(snapshot(reopened)).toEqual(state);
    reopened.close();
  });

  const severalLines: { name: string; bytes: () => Buffer; base: Buffer }[] = [
    { name: 'zeros with newlines', bytes: () => Buffer.from('\0\0\0\n\0\0\n\0\0\0\n'), base: whole },
    { name: 'random garbage with newlines', bytes: () => randomBytes(3000, true), base: whole },
    {
      name: 'garbage with newlines after a half-written last line',
      bytes: () => randomBytes(900, true),
      base: whole.subarray(0, lastLineStart + 30),
    },
  ];

  it.each(severalLines)('refuses a bad tail of several lines as corruption and changes nothing: $name', ({
    bytes,
    base,
  }) => {
    const file = join(dir.path, 'lines.jsonl');
    writeFileSync(file, Buffer.concat([base, bytes()]));
    const before = readFileSync(file);
    const goodBytes = base.lastIndexOf(0x0a) + 1;
    expect(() => openStore(file)).toThrow(
      new RegExp(`the ${before.length - goodBytes} bytes from offset ${goodBytes} to the end span \\d+ lines`),
    );
    expect(readFileSync(file)).toEqual(before);
  });

  it('is reported but left in place by a read-only open', () => {
    const file = join(dir.path, 'read-only-tail.jsonl');
    writeFileSync(file, Buffer.concat([whole, Buffer.alloc(64)]));
    const store = openStore(file, { readOnly: true });
    expect(store.report.tornTail).toMatchObject({ offset: whole.length, bytes: 64, repaired: false });
    expect(snapshot(store)).toEqual(built.states[committed]);
    store.close();
    expect(statSync(file).size).toBe(whole.length + 64);
  });
});
