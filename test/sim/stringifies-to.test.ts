/**
 * stringifiesTo (the simulator's comparison of a read-back record with its acknowledged or shipped
 * JSON) decides as `JSON.stringify(value) === json` does, with or without its shortcut through a
 * replayed entry's payload bytes: whatever the bytes hold and whether or not they were parsed.
 */
import { describe, expect, it } from 'vitest';
import { ReplayedEntry } from '../../src/core/storage/replayed-entry';
import { stringifiesTo } from './stringifies-to';

/** A replayed entry whose payload is `text` as a file would hold it. */
function replayed(text: string, fields: { seq?: number; id?: string; parentId?: string | null } = {}): ReplayedEntry {
  const bytes = Buffer.from(`xx${text}yy`);
  return new ReplayedEntry(
    fields.seq ?? 3,
    1000,
    fields.id ?? 'e_1',
    fields.parentId ?? null,
    'user',
    bytes,
    2,
    2 + Buffer.byteLength(text),
  );
}

const payload = { text: 'héllo "wörld" 🦀\u2028', n: [1, 2.5, -0, 1e21], nested: { a: null, b: true } };
const acked = JSON.stringify({
  kind: 'entry',
  seq: 3,
  timestamp: 1000,
  id: 'e_1',
  parentId: null,
  type: 'user',
  payload,
});

describe('stringifiesTo', () => {
  const cases: readonly [string, () => ReplayedEntry, string][] = [
    ['the payload as written', () => replayed(JSON.stringify(payload)), acked],
    ['the payload with other spacing', () => replayed(JSON.stringify(payload, null, 1)), acked],
    ['the payload with escaped letters', () => replayed(JSON.stringify(payload).replace('h', '\\u0068')), acked],
    [
      'the payload with its keys in another order',
      () => replayed(JSON.stringify({ nested: payload.nested, text: payload.text, n: payload.n })),
      acked,
    ],
    ['another payload', () => replayed(JSON.stringify({ ...payload, text: 'other' })), acked],
    ['another seq', () => replayed(JSON.stringify(payload), { seq: 4 }), acked],
    ['another parent', () => replayed(JSON.stringify(payload), { parentId: 'e_0' }), acked],
    ['a json with a field after the payload', () => replayed(JSON.stringify(payload)), `${acked.slice(0, -1)},"x":1}`],
    ['a json whose payload is cut', () => replayed(JSON.stringify(payload)), acked.replace('"b":true', '"b":false')],
  ];
  for (const [what, make, json] of cases)
    for (const parsedFirst of [false, true])
      it(`decides as JSON.stringify does: ${what}${parsedFirst ? ', its payload parsed first' : ''}`, () => {
        const entry = make();
        if (parsedFirst) void entry.payload;
        const expected = JSON.stringify(make()) === json;
        expect(stringifiesTo(entry, json)).toBe(expected);
      });

  it('says equal for the payload as written and for the same value spaced otherwise, and not for another', () => {
    expect(stringifiesTo(replayed(JSON.stringify(payload)), acked)).toBe(true);
    expect(stringifiesTo(replayed(JSON.stringify(payload, null, 2)), acked)).toBe(true);
    expect(stringifiesTo(replayed(JSON.stringify({ ...payload, text: 'x' })), acked)).toBe(false);
  });

  it('compares values other than replayed entries by their JSON', () => {
    expect(stringifiesTo(JSON.parse(acked), acked)).toBe(true);
    expect(stringifiesTo({ ...JSON.parse(acked), seq: 9 }, acked)).toBe(false);
  });
});
