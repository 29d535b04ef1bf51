import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSessionFile } from '../../../src/core/storage/check';
import { encodeHeader, LINE_PREFIX_BYTES } from '../../../src/core/storage/line-codec';
import { buildSession, linesOf, openStore, rechained, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

/** Payload damage that keeps the commit's envelope intact: what only a full JSON check finds. */
const damages: { name: string; payload: string }[] = [
  { name: 'an unclosed payload object', payload: '{"text":"hi"' },
  { name: 'a raw control character in the text', payload: '{"text":"a\u0001b"}' },
  { name: 'an unknown escape', payload: '{"text":"a\\qb"}' },
  { name: 'a number with a leading zero', payload: '{"n":01}' },
  { name: 'a trailing comma', payload: '{"text":"hi",}' },
  { name: 'a bare word', payload: '{"text":hi}' },
  { name: 'a short \\u escape', payload: '{"text":"\\u12"}' },
];

describe('an entry payload that is not JSON inside a line whose checksum matches', () => {
  const built = buildSession(dir.path);
  built.store.close();
  const original = readFileSync(built.path);
  const lines = linesOf(original);
  // Line 2 is the first commit: [user entry, lane leaf]. Its payload is damaged, the rest kept.
  const entryLine = lines[1]!.subarray(LINE_PREFIX_BYTES, lines[1]!.length - 1).toString('utf8');
  const [entry, leaf] = JSON.parse(entryLine) as [Record<string, unknown>, unknown];
  const withPayload = (payload: string): Buffer => {
    const head = JSON.stringify({ ...entry, payload: 0 }).slice(0, -2);
    return Buffer.from(`[${head}${payload}},${JSON.stringify(leaf)}]`, 'utf8');
  };

  it('opens when the payload is left as it was (the cases below fail for the damage alone)', () => {
    const file = join(dir.path, 'undamaged.jsonl');
    writeFileSync(file, rechained(lines, 2, withPayload(JSON.stringify(entry.payload))));
    expect(readFileSync(file).equals(original)).toBe(true);
    openStore(file, { readOnly: true }).close();
  });

  it.each(damages)('mid-file, is refused at open, naming the line, and changes nothing: $name', ({ payload }) => {
    const file = join(dir.path, `mid-${damages.findIndex((d) => d.payload === payload)}.jsonl`);
    const bytes = rechained(lines, 2, withPayload(payload));
    writeFileSync(file, bytes);
    expect(() => openStore(file)).toThrowError(
      expect.objectContaining({ kind: 'corrupt', details: expect.objectContaining({ line: 2 }) }),
    );
    expect(() => openStore(file, { readOnly: true })).toThrowError(
      'line 2: checksum matches but the commit is not JSON',
    );
    expect(checkSessionFile(file).problem).toMatchObject({ kind: 'corrupt', line: 2 });
    expect(readFileSync(file).equals(bytes), 'the refused file is left as it was').toBe(true);
  });

  it('as the last line, is a torn tail: reported, copied aside and cut on a writable open, as before', () => {
    const file = join(dir.path, 'last.jsonl');
    const last = lines.length;
    const lastBody = lines[last - 1]!.subarray(LINE_PREFIX_BYTES, lines[last - 1]!.length - 1).toString('utf8');
    const damaged = Buffer.from(lastBody.replace(/"payload":\{/, '"payload":{,'), 'utf8');
    expect(damaged.toString()).not.toBe(lastBody);
    writeFileSync(file, rechained(lines, last, damaged));
    const readOnly = openStore(file, { readOnly: true });
    expect(readOnly.report.tornTail).toMatchObject({
      line: last,
      repaired: false,
      reason: expect.stringContaining('not JSON'),
    });
    readOnly.close();
    const store = openStore(file);
    expect(store.report.tornTail).toMatchObject({ line: last, repaired: true });
    expect(store.report.tornTail?.savedTo).toBeDefined();
    store.close();
    const header = encodeHeader(JSON.parse(lines[0]!.toString('utf8')));
    expect(readFileSync(file).subarray(0, header.length).equals(header)).toBe(true);
    expect(readFileSync(file).equals(original.subarray(0, original.length - lines[last - 1]!.length - 1))).toBe(true);
  });
});
