import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { scanColumns } from '../../../src/core/storage/column-scan';
import { encodeCommit, headerCrc, storedCrcOf } from '../../../src/core/storage/line-codec';
import { buildSession, createStore, linesOf, tempDir, testSeed } from '../../support/storage-fixtures';
import { fcRuns } from '../../support/fc-runs';
import { SCANNED as ASIDE, ONE_THREAD, openOutcome as outcome } from '../../support/open-outcome';

const dir = tempDir('tole-columns-');
afterAll(() => dir.remove());

/** What an arbitrary makes. */
type Of<A> = A extends fc.Arbitrary<infer T> ? T : never;

/** A record's JSON text: tole's (kind, seq, then the rest) or written otherwise. */
type Written = string;

/** An entry's id: 'next' is the next of tole's own (e_<n>), the rest are ids tole would not make, or repeats. */
const entryId = fc.oneof(
  { weight: 200, arbitrary: fc.constant('next') },
  fc.constantFrom('e_1', 'e_2', 'e_99', 'u_9', 'é', 'a"b', 'e_01', 'x'),
);
const text = fc.oneof(fc.constantFrom('hi', 'é', 'a\\"b', '\n', '日本'), fc.string({ unit: 'binary', maxLength: 8 }));
/** A register value as text: tole's lane head, a flat object read from its bytes, or anything JSON. */
const value: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom('e_1', 'e_12', 'é').map((id) => JSON.stringify({ lane: 'main', entryId: id })),
  },
  { weight: 2, arbitrary: fc.constantFrom('"e_3"', '"main"') },
  fc.constantFrom(
    '{"lane":"a","lane":"bb"}',
    '{"n":12,"t":true,"z":null,"s":"x"}',
    '{"é":"x"}',
    '{"a":"\\u00e9"}',
    '{}',
    '{"a":{"b":1}}',
    '{"a":[1]}',
    '"\\u0041"',
    '"é"',
    '[1,"a"]',
    '-0',
    '1e3',
    'null',
  ),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
);

const entry = fc
  .record({
    id: entryId,
    parent: fc.oneof(
      { weight: 100, arbitrary: fc.constant('last') },
      { weight: 10, arbitrary: fc.constantFrom(null, 'e_1', 'e_2') },
      fc.constant('nope'),
    ),
    type: fc.oneof(
      { weight: 100, arbitrary: fc.constantFrom('user', 'assistant', 'tool_result') },
      fc.constant('alien'),
    ),
    timestamp: fc.oneof({ weight: 100, arbitrary: fc.nat() }, fc.constantFrom(-5, 1.5, '01')),
    payload: text.map((t) => JSON.stringify({ text: t })),
    style: fc.oneof(
      { weight: 100, arbitrary: fc.constant('tole') },
      fc.constantFrom('spaced', 'escaped id', 'escaped parent', 'reordered'),
    ),
  })
  .map((e) => ({ kind: 'entry' as const, ...e }));

const register = fc.record({
  kind: fc.constant('register' as const),
  op: fc.oneof(
    { weight: 60, arbitrary: fc.constant('set') },
    { weight: 10, arbitrary: fc.constant('delete') },
    fc.constant('bogus'),
  ),
  seqFirst: fc.boolean(),
  namespace: fc.oneof(
    { weight: 100, arbitrary: fc.constantFrom('lane.leaf', 'lane.head', 'fact.label') },
    fc.constantFrom('nope.x', 'lane'),
  ),
  key: fc.oneof({ weight: 100, arbitrary: fc.constantFrom('main', 'head', 'a', 'é') }, fc.constantFrom('', 'k\\"q')),
  value: fc.option(value, { nil: undefined, freq: 8 }),
});

const usage = fc.record({
  kind: fc.constant('usage' as const),
  id: fc.oneof({ weight: 20, arbitrary: fc.constantFrom('u_4', 'u_40') }, fc.constantFrom('zz', '7')),
  style: fc.oneof({ weight: 50, arbitrary: fc.constant('tole') }, fc.constantFrom('kind twice', 'id a number')),
});

type Rec = Of<typeof entry> | Of<typeof register> | Of<typeof usage>;
const record: fc.Arbitrary<Rec> = fc.oneof({ weight: 3, arbitrary: entry }, { weight: 3, arbitrary: register }, usage);

/** A commit: its records, whether a lone one is written bare, and how far its first seq is past the last (0: repeated). */
const commit = fc.record({
  records: fc.array(record, { minLength: 1, maxLength: 3 }),
  bare: fc.boolean(),
  seqStep: fc.oneof({ weight: 100, arbitrary: fc.constant(1) }, fc.constantFrom(0, 3)),
});

/** The text of `r` at `seq`; `last` is the id of the entry written before it. */
function written(r: Rec, seq: number, last: string | null, id: string): Written {
  if (r.kind === 'entry') {
    const parent = r.parent === 'last' ? last : r.parent;
    const timestamp = typeof r.timestamp === 'string' ? r.timestamp : JSON.stringify(r.timestamp);
    const quoted = JSON.stringify(id);
    const fields = `"seq":${seq},"timestamp":${timestamp},"id":${r.style === 'escaped id' ? quoted.replace('e', '\\u0065') : quoted},"parentId":${r.style === 'escaped parent' && parent !== null ? JSON.stringify(parent).replace('e', '\\u0065') : JSON.stringify(parent)},"type":${JSON.stringify(r.type)},"payload":${r.payload}`;
    if (r.style === 'spaced') return `{"kind": "entry",${fields}}`;
    if (r.style === 'reordered') return `{"seq":${seq},"kind":"entry",${fields.slice(fields.indexOf('"timestamp"'))}}`;
    return `{"kind":"entry",${fields}}`;
  }
  if (r.kind === 'register') {
    const head = r.seqFirst ? `"seq":${seq},"op":${JSON.stringify(r.op)}` : `"op":${JSON.stringify(r.op)},"seq":${seq}`;
    const rest = `"namespace":${JSON.stringify(r.namespace)},"key":"${r.key}"${r.value === undefined ? '' : `,"value":${r.value}`}`;
    return `{"kind":"register",${head},${rest}}`;
  }
  const usageId = r.style === 'id a number' ? '7' : JSON.stringify(r.id);
  const tail = r.style === 'kind twice' ? ',"kind":"entry"' : '';
  return `{"kind":"usage","seq":${seq},"id":${usageId},"entryId":null,"usage":{"inputTokens":3}${tail}}`;
}

let made = 0;
/** A session file of `commits` written as given, each line framed and chained as tole frames them. */
function sessionOf(commits: readonly Of<typeof commit>[]): string {
  const store = createStore(join(dir.path));
  const path = store.path.replace(/\.jsonl$/, `-${made++}.jsonl`);
  store.close();
  const header = linesOf(readFileSync(store.path))[0]!;
  const lines: Buffer[] = [Buffer.concat([header, Buffer.from('\n')])];
  let crc = headerCrc(header);
  let seq = 0;
  let last: string | null = null;
  let next = 1;
  for (const c of commits) {
    const texts: string[] = [];
    for (const [i, r] of c.records.entries()) {
      seq += i === 0 ? c.seqStep : 1;
      const id = r.kind === 'entry' && r.id === 'next' ? `e_${next++}` : r.kind === 'entry' ? r.id : '';
      texts.push(written(r, seq, last, id));
      if (r.kind === 'entry') last = id;
    }
    const json = texts.length === 1 && c.bare ? texts[0]! : `[${texts.join(',')}]`;
    const line = encodeCommit([], crc, json);
    crc = line.crc;
    lines.push(line.bytes);
  }
  writeFileSync(path, Buffer.concat(lines));
  return path;
}

/** The scan of the whole file at `path`, as an open without a saved index runs it. */
function scan(path: string): { file: Buffer; scanned: ReturnType<typeof scanColumns> } {
  const file = readFileSync(path);
  const headerEnd = file.indexOf(0x0a);
  const crc = headerCrc(file.subarray(0, headerEnd));
  return { file, scanned: scanColumns(file, headerEnd + 1, crc, (from) => file.indexOf(0x0a, from)) };
}

describe('the column scan of a session without a saved index', () => {
  it('opens any file to the state, or the refusal, of the record-by-record replay', () => {
    let lines = 0;
    let scanned = 0;
    fc.assert(
      fc.property(fc.array(commit, { minLength: 1, maxLength: 30 }), (commits) => {
        const path = sessionOf(commits);
        expect(outcome(path, ASIDE)).toEqual(outcome(path, ONE_THREAD));
        lines += commits.length;
        scanned += scan(path).scanned?.commitLines ?? 0;
      }),
      { seed: testSeed('column scan'), numRuns: fcRuns(0.5) },
    );
    // The property says something only if the scan took much of the files in.
    expect(scanned).toBeGreaterThan(lines / 3);
  });

  it('reads every line of a session tole wrote, and stops before the first line it does not take', () => {
    const built = buildSession(dir.path);
    built.store.close();
    const whole = scan(built.path);
    expect(whole.scanned).toMatchObject({ bytes: whole.file.length, commitLines: linesOf(whole.file).length - 1 });
    const user = { kind: 'entry', parent: 'last', type: 'user', timestamp: 5, payload: '{"text":"hi"}' } as const;
    const lines = [
      { ...user, id: 'next', parent: null, style: 'tole' },
      { ...user, id: 'next', style: 'spaced' },
      { ...user, id: 'next', style: 'tole' },
    ].map((r) => ({ records: [r as Rec], bare: true, seqStep: 1 as const }));
    const path = sessionOf(lines);
    const { file, scanned } = scan(path);
    expect(scanned).toMatchObject({ bytes: file.indexOf(0x0a, file.indexOf(0x0a) + 1) + 1, commitLines: 1 });
    expect(scanned!.ids).toEqual(['e_1']);
    expect(outcome(path, ASIDE)).toEqual(outcome(path, ONE_THREAD));
  });

  it('refuses a checksummed entry whose parent is an object or a number as corrupt, naming the line', () => {
    const user = { kind: 'entry', parent: 'last', type: 'user', timestamp: 5, payload: '{"text":"hi"}' } as const;
    for (const parent of ['{"id":"e_1"}', '7']) {
      const commits = [
        { ...user, id: 'next', parent: null, style: 'tole' },
        { ...user, id: 'next', style: 'tole' },
      ].map((r) => ({ records: [r as Rec], bare: true, seqStep: 1 as const }));
      const path = sessionOf(commits);
      // The second line again with its parent replaced, framed and chained as tole frames a line.
      const json = `{"kind":"entry","seq":2,"timestamp":5,"id":"e_2","parentId":${parent},"type":"user","payload":{}}`;
      const first = linesOf(readFileSync(path));
      const line = encodeCommit([], storedCrcOf(first[1]!)!, json);
      writeFileSync(path, Buffer.concat([first[0]!, Buffer.from('\n'), first[1]!, Buffer.from('\n'), line.bytes]));
      for (const how of [ASIDE, ONE_THREAD])
        expect(outcome(path, how)).toMatch(/^corrupt: .*line 3: entry e_2 names a parent that is not an id/);
    }
  });

  it('undoes a line it does not take whole, or when a cell it deleted cannot go back in its place, takes none', () => {
    const set = {
      kind: 'register',
      op: 'set',
      seqFirst: true,
      namespace: 'lane.leaf',
      key: 'main',
      value: '"e_1"',
    } as const;
    // The last record's key is escaped: the replay takes it, the scan does not.
    const escaped = { ...set, key: 'k\\"q' } as const;
    const first = { records: [set, { ...set, key: 'other' }], bare: false, seqStep: 1 };
    const changes = { records: [{ ...set, value: '"e_2"' }, { ...set, key: 'new' }, escaped], bare: false, seqStep: 1 };
    const deletes = {
      records: [{ ...set, value: '"e_2"' }, { ...set, key: 'other', op: 'delete' }, escaped],
      bare: false,
      seqStep: 1,
    };
    for (const [commits, taken] of [
      [[first, changes], 1],
      [[first, deletes], null],
    ] as const) {
      const path = sessionOf(commits as unknown as Of<typeof commit>[]);
      expect(scan(path).scanned?.commitLines ?? null).toBe(taken);
      const opened = outcome(path, ASIDE);
      expect(opened).toMatchObject({ lastSeq: 5 });
      expect(opened).toEqual(outcome(path, ONE_THREAD));
    }
  });
});
