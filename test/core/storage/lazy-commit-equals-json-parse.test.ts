import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCommitBody, NOT_JSON } from '../../../src/core/storage/lazy-commit';
import { dropPayloads, payloadIsUnparsed } from '../../../src/core/storage/replayed-entry';
import { ENTRY_TYPES } from '../../../src/core/tree/entry-types';
import { testSeed } from '../../support/storage-fixtures';
import { fcRuns } from '../../support/fc-runs';

/** What `JSON.parse` of the line's text gives (the eager replay): the reading the lazy one must equal. */
function eager(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return NOT_JSON;
  }
}

/**
 * Reads `bytes` the way replay does: from inside the larger buffer the file was read into, with
 * bytes before and after it that must not be taken for part of the commit.
 */
function decodeInside(bytes: Buffer): unknown {
  const around = Buffer.from('}]"}]', 'latin1');
  const line = Buffer.concat([around, bytes, around]);
  return decodeCommitBody(line, around.length, around.length + bytes.length);
}

/** The decoded commit as text: reads every lazy payload, in the order of the object's keys. */
function asText(value: unknown): string {
  return value === NOT_JSON ? 'NOT_JSON' : JSON.stringify(value);
}

const id = fc.oneof(fc.constantFrom('e_1', 'e_2', 'e_10'), fc.string({ maxLength: 6 }));
const entry = fc.record({
  kind: fc.constant('entry'),
  seq: fc.oneof(fc.nat(), fc.integer({ min: -5, max: 5 }), fc.double()),
  timestamp: fc.oneof(fc.nat({ max: Number.MAX_SAFE_INTEGER }), fc.constant(1.5)),
  id,
  parentId: fc.option(id),
  type: fc.oneof(fc.constantFrom(...ENTRY_TYPES), fc.string({ maxLength: 4 })),
  payload: fc.jsonValue(),
});
const register = fc.record(
  {
    kind: fc.constant('register'),
    op: fc.constantFrom('set', 'delete'),
    seq: fc.nat(),
    namespace: fc.constantFrom('lane.leaf', 'lane.head', 'fact.label', 'x.y'),
    key: id,
    value: fc.oneof(
      fc.jsonValue(),
      fc.dictionary(
        fc.constantFrom('lane', 'entryId', 'pc', 'seq', 'other', '__proto__'),
        fc.oneof(id, fc.nat(), fc.boolean()),
      ),
    ),
  },
  { requiredKeys: ['kind', 'seq'] },
);
/** Register records in the key order tole writes them (kind, seq, op, namespace, key, value), a delete without a value. */
const registerAsWritten = fc.record(
  {
    kind: fc.constant('register'),
    seq: fc.oneof(fc.nat(), fc.integer({ min: -3, max: 3 }), fc.double()),
    op: fc.constantFrom('set', 'delete', 's\u0065t'),
    namespace: fc.constantFrom('lane.leaf', 'lane.head', 'machine', 'x"y'),
    key: id,
    value: fc.oneof(id, fc.jsonValue(), fc.record({ lane: id, entryId: id })),
  },
  { requiredKeys: ['kind', 'seq', 'op', 'namespace', 'key'] },
);
const usage = fc.record({
  kind: fc.constant('usage'),
  seq: fc.nat(),
  id,
  entryId: fc.option(id),
  usage: fc.jsonValue(),
});
/** Records as tole writes them, and others: keys shuffled, extra keys, keys spelt with escapes. */
const record = fc.oneof(
  entry,
  register,
  registerAsWritten,
  usage,
  entry.chain((e) =>
    fc.shuffledSubarray(Object.keys(e)).map((keys) => Object.fromEntries(keys.map((k) => [k, e[k as keyof typeof e]]))),
  ),
  fc.dictionary(fc.constantFrom('kind', 'payload', 'seq', 'id', '__proto__', 'p\\u0061yload', 'other'), fc.jsonValue()),
  fc.jsonValue(),
);
const commit = fc.oneof(record, fc.array(record, { maxLength: 4 }));
/** The commit's JSON, sometimes with whitespace between tokens. */
const commitText = fc
  .tuple(commit, fc.constantFrom(undefined, 1, '\t', ' \r'))
  .map(([c, space]) => JSON.stringify(c, null, space as string | number | undefined) ?? 'null');

describe('a commit read lazily', () => {
  const seed = testSeed('lazy commit');

  it('gives the records JSON.parse gives, keys in the same order, for any commit', () => {
    fc.assert(
      fc.property(commitText, (text) => {
        const bytes = Buffer.from(text, 'utf8');
        const lazy = decodeInside(bytes);
        const expected = eager(bytes);
        expect(asText(lazy)).toBe(asText(expected));
        expect(lazy).toEqual(expected);
      }),
      { seed, numRuns: fcRuns() },
    );
  });

  it('refuses exactly the texts JSON.parse refuses (the check at open is as strict as parsing)', () => {
    const jsonish = fc.constantFrom(
      ...'{}[]":,\\ \t\r0123456789-+.eEtrufalsn_upayloadkind\u0001\u00e9\u{1f980}'.split(''),
    );
    const edit = fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.array(jsonish, { maxLength: 3 }));
    const damaged = fc.tuple(commitText, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([text, edits]) => {
      let t = text;
      for (const [at, cut, insert] of edits) {
        const i = at % (t.length + 1);
        t = t.slice(0, i) + insert.join('') + t.slice(i + cut);
      }
      return t;
    });
    fc.assert(
      fc.property(damaged, (text) => {
        const bytes = Buffer.from(text, 'utf8');
        expect(asText(decodeInside(bytes))).toBe(asText(eager(bytes)));
      }),
      { seed, numRuns: fcRuns() },
    );
  });

  it('reads the bytes in place: a line inside a larger buffer, and invalid UTF-8 inside strings as JSON.parse of the decoded text does', () => {
    const record =
      '{"kind":"entry","seq":3,"timestamp":4,"id":"e_3","parentId":"e_2","type":"user","payload":{"text":"a\\u00e9 ✓"}}';
    const line = Buffer.from(`{"c":"00000000","r":${record}}`, 'utf8');
    const decoded = decodeCommitBody(line, 20, line.length - 1);
    expect(asText(decoded)).toBe(JSON.stringify(JSON.parse(record)));

    const bad = Buffer.concat([
      Buffer.from(
        '{"kind":"entry","seq":1,"timestamp":1,"id":"e_1","parentId":null,"type":"user","payload":{"text":"',
        'latin1',
      ),
      Buffer.from([0xe2, 0x28, 0xff, 0x80]),
      Buffer.from('"}}', 'latin1'),
    ]);
    expect(asText(decodeCommitBody(bad))).toBe(asText(eager(bad)));
  });

  it('reads no byte past the end it is given, even where the bytes after it would finish a record', () => {
    for (const record of [
      '{"kind":"register","seq":1,"op":"set","namespace":"lane.leaf","key":"main"}',
      '{"kind":"register","seq":1,"op":"set","namespace":"lane.leaf","key":"main","value":"e_1"}',
      '{"kind":"entry","seq":1,"timestamp":2,"id":"e_1","parentId":null,"type":"user","payload":{"text":"hi"}}',
    ]) {
      for (let cut = 1; cut < record.length; cut++) {
        const line = Buffer.from(record, 'latin1');
        const eagerly = eager(line.subarray(0, record.length - cut));
        expect(asText(decodeCommitBody(line, 0, record.length - cut)), `${record} cut by ${cut}`).toBe(asText(eagerly));
        expect(asText(decodeCommitBody(line, 0, record.length - cut, true)), `trusted, cut by ${cut}`).toBe(
          asText(eagerly),
        );
      }
    }
  });

  it('leaves the payload of an entry as bytes until it is read, and can drop it back to bytes', () => {
    const text =
      '{"kind":"entry","seq":1,"timestamp":2,"id":"e_1","parentId":null,"type":"user","payload":{"text":"hi"}}';
    const decoded = decodeCommitBody(Buffer.from(text)) as { payload: unknown };
    expect(payloadIsUnparsed(decoded)).toBe(true);
    expect(Object.keys(decoded)).toEqual(['kind', 'seq', 'timestamp', 'id', 'parentId', 'type', 'payload']);
    expect(decoded.payload).toEqual({ text: 'hi' });
    expect(payloadIsUnparsed(decoded)).toBe(false);
    expect(decoded.payload).toBe(decoded.payload);
    dropPayloads();
    expect(payloadIsUnparsed(decoded)).toBe(true);
    expect(decoded.payload).toEqual({ text: 'hi' });
    expect({ ...decoded }).toEqual(JSON.parse(text));
    expect(structuredClone(decoded)).toEqual(JSON.parse(text));
  });
});
