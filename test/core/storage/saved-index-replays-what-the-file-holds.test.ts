import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { jsonSkipper } from '../../../src/core/storage/json-skip';
import { LINE_PREFIX_BYTES } from '../../../src/core/storage/line-codec';
import type { DraftRecord } from '../../../src/core/storage/records';
import { indexPathOf, readIndex, writeIndex } from '../../../src/core/storage/session-index';
import type { SessionStore } from '../../../src/core/storage/session-store';
import { nodeFileOps } from '../../../src/core/storage/file-ops';
import { dropEarlyCheck, startEarlyCheck } from '../../../src/core/storage/early-check';
import { AsideCheck, firstBadLine } from '../../../src/core/storage/verify-aside';
import {
  TEST_INDEX_KEY,
  createStore,
  linesOf,
  openStore,
  rechained,
  tempDir,
  testSeed,
} from '../../support/storage-fixtures';
import { fcRuns } from '../../support/fc-runs';
import { fullState as openedState, ONE_THREAD, SCANNED } from '../../support/open-outcome';

const dir = tempDir('tole-index-');
afterAll(() => dir.remove());

/** Any size of file replays beside the worker (and so is indexed), or one thread replays it alone. */
const ASIDE = SCANNED;

/** Everything an open rebuilds (open-outcome.ts), and the tree's row places and the header. */
function fullState(store: SessionStore): unknown {
  const entries = [...store.tree.all()];
  return {
    ...openedState(store),
    rows: entries.map((e, i) => [store.tree.placeOf(e.id), store.tree.onlyChildAfter(e.id, i)]),
    header: store.header,
  };
}

/** What an open gives: the error it throws, or the full state (and whether the index was used). */
function outcome(
  file: string,
  how: { asideMinBytes: number },
  readOnly = true,
): { state?: unknown; indexed?: number; error?: string } {
  try {
    const store = openStore(file, { readOnly, ...how });
    const result = { state: fullState(store), indexed: store.indexedBytes };
    store.close();
    return result;
  } catch (error) {
    return { error: `${(error as { kind?: string }).kind}: ${(error as Error).message}` };
  }
}

type Step =
  | { kind: 'entry'; parent: number; text: string; type: 'user' | 'assistant' | 'notice'; lanes: boolean; id?: string }
  | { kind: 'set'; ns: string; key: string; value: unknown }
  | { kind: 'delete'; ns: string; key: string }
  | { kind: 'usage'; tokens: number };

const NAMESPACES = ['fact.label', 'pending.intent', 'lane.leaf', 'lane.head'];
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('entry' as const),
      parent: fc.nat(),
      text: fc.string({ unit: 'binary', maxLength: 40 }),
      type: fc.constantFrom('user' as const, 'assistant' as const, 'notice' as const),
      lanes: fc.boolean(),
      // Now and then an id tole would not make: the index keeps ids as lines of UTF-8 text.
      id: fc.option(
        fc.oneof(
          fc.constantFrom('e_01', 'e_0', 'e_99999999999', 'e_1073741824', 'x\ny', '\ud800', 'é', ''),
          fc.string({ unit: 'binary', maxLength: 6 }),
        ),
        { nil: undefined, freq: 4 },
      ),
    }),
  },
  fc.record({
    kind: fc.constant('set' as const),
    ns: fc.constantFrom(...NAMESPACES),
    key: fc.constantFrom('a', 'b', 'main', 'head', 'é'),
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    ns: fc.constantFrom(...NAMESPACES),
    key: fc.constantFrom('a', 'b'),
  }),
  fc.record({ kind: fc.constant('usage' as const), tokens: fc.nat() }),
);

function payloadOf(type: string, text: string): unknown {
  if (type === 'assistant') return { text, toolCalls: [], model: 'm', finishReason: 'stop' };
  if (type === 'notice') return { level: 'info', source: 'user', text };
  return { text };
}

/** Commits `steps` (a new entry's parent picked among the entries so far), some as one transaction. */
function commitSteps(store: SessionStore, steps: readonly Step[]): void {
  const ids = [...store.tree.all()].map((e) => e.id);
  for (const s of steps) {
    const drafts: DraftRecord[] = [];
    if (s.kind === 'entry') {
      const id = s.id !== undefined && !ids.includes(s.id) ? s.id : store.newEntryId();
      const parentId = ids.length === 0 || s.parent % 5 === 0 ? null : ids[s.parent % ids.length]!;
      drafts.push({
        kind: 'entry',
        timestamp: store.now(),
        id,
        parentId,
        type: s.type,
        payload: payloadOf(s.type, s.text),
      });
      if (s.lanes) {
        drafts.push({ kind: 'register', op: 'set', namespace: 'lane.leaf', key: 'main', value: id });
        drafts.push({
          kind: 'register',
          op: 'set',
          namespace: 'lane.head',
          key: 'head',
          value: { lane: 'main', entryId: id },
        });
      }
      ids.push(id);
    } else if (s.kind === 'set')
      drafts.push({ kind: 'register', op: 'set', namespace: s.ns, key: s.key, value: s.value });
    else if (s.kind === 'delete') drafts.push({ kind: 'register', op: 'delete', namespace: s.ns, key: s.key });
    else
      drafts.push({
        kind: 'usage',
        id: store.newUsageId(),
        entryId: ids.at(-1) ?? null,
        usage: { inputTokens: s.tokens },
      });
    store.commit(drafts);
  }
}

/** How many entries the saved index beside `path` holds. */
function indexedEntries(path: string): number {
  return readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)?.ids.length ?? 0;
}

let made = 0;
/** A session of `steps`, opened once writable beside the worker (which saves its index), then `more` appended. */
function indexedSession(steps: readonly Step[], more: readonly Step[] = []): string {
  const sub = join(dir.path, `s${made++}`);
  mkdirSync(sub);
  const store = createStore(sub);
  commitSteps(store, [{ kind: 'entry', parent: 0, text: 'first', type: 'user', lanes: true }, ...steps]);
  store.close();
  const reopened = openStore(store.path, ASIDE);
  reopened.close();
  if (more.length > 0) {
    const appending = openStore(store.path, ONE_THREAD);
    commitSteps(appending, more);
    appending.close();
  }
  return store.path;
}

describe('the saved index beside a session', () => {
  it('opens to the state, payloads included, that replaying the whole file gives, for any session and any lines added after it', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), fc.array(step, { maxLength: 8 }), (steps, more) => {
        const path = indexedSession(steps, more);
        const index = readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY);
        const fromIndex = outcome(path, ASIDE);
        const replayed = outcome(path, ONE_THREAD);
        // An id that JSON escapes (a control character, a quote, a lone surrogate...) is not read
        // lazily from the file, and such a session has no index: every other id is kept as a line of text.
        const whole = openStore(path, { readOnly: true, ...ONE_THREAD });
        const ids = [...whole.tree.all()].map((e) => e.id);
        whole.close();
        const indexedIds = ids.slice(0, 1 + steps.filter((s) => s.kind === 'entry').length);
        const kept = indexedIds.every((id) => JSON.stringify(id) === `"${id}"`);
        // An index is read only when it is no larger than the session (readIndex's bound): a session
        // of a few lines can be smaller than its index (never one tole indexes: only large files
        // replay beside the worker), and is then replayed as if it had none.
        const indexPath = indexPathOf(path);
        const fits = existsSync(indexPath) && statSync(indexPath).size <= statSync(path).size;
        if (kept) expect(existsSync(indexPath), 'a writable open beside the worker saved the index').toBe(true);
        if (kept && fits) {
          expect(index, 'the saved index is read').not.toBeNull();
          expect(fromIndex.indexed).toBe(index!.bytes);
          // The ids are lines of text beside the JSON part, not in it.
          expect(index!.ids.length).toBeGreaterThan(0);
          expect(JSON.stringify(index!.state)).not.toContain('"entries"');
        } else {
          expect(index).toBeNull();
          expect(fromIndex.indexed).toBe(0);
        }
        expect(fromIndex.state).toEqual(replayed.state);
        // Lazily read payloads equal the eagerly parsed ones, line by line.
        const eager = readFileSync(path, 'utf8')
          .trimEnd()
          .split('\n')
          .slice(1)
          .flatMap((line) => [JSON.parse(line).r].flat())
          .filter((r: { kind: string }) => r.kind === 'entry');
        const store = openStore(path, { readOnly: true, ...ASIDE });
        // The indexed entries are built only when read: none by the open, one for the path's last item.
        // The lines after the index are replayed (built) or, with no index read, taken into columns by
        // the first open's scan (column-scan.ts: built when read too), so the open builds at most those.
        const built = (): number =>
          (store.tree as unknown as { order: unknown[] }).order.filter((e) => e !== undefined).length;
        const fromFile = store.tree.size - indexedEntries(path);
        if (kept) expect(built()).toBeLessThanOrEqual(fromFile);
        const last = store.tree.idAt(store.tree.size - 1)!;
        expect(store.tree.pathTo(last).at(-1)!.id).toBe(last);
        if (kept) expect(built()).toBeLessThanOrEqual(fromFile + 1);
        expect(JSON.parse(JSON.stringify([...store.tree.all()]))).toEqual(eager);
        store.close();
      }),
      { seed: testSeed('saved index state'), numRuns: fcRuns(0.25) },
    );
  });

  it('is ignored when damaged, stale or not this file, and a writable open saves it again', () => {
    const steps: Step[] = Array.from({ length: 12 }, (_, i) => ({
      kind: 'entry',
      parent: i,
      text: `line ${i} ✓`,
      type: i % 2 ? 'assistant' : 'user',
      lanes: true,
    }));
    const path = indexedSession(steps);
    const indexPath = indexPathOf(path);
    const good = readFileSync(indexPath);
    const reference = outcome(path, ONE_THREAD);
    expect(outcome(path, ASIDE)).toEqual({
      ...reference,
      indexed: readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)!.bytes,
    });

    // One byte of the index changed: its own CRC fails.
    const flipped = Buffer.from(good);
    flipped[flipped.length - 20] ^= 1;
    writeFileSync(indexPath, flipped);
    expect(readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)).toBeNull();
    expect(outcome(path, ASIDE)).toEqual({ ...reference, indexed: 0 });

    // A well-formed index whose state cannot be (a parent after its child): dropped whole.
    writeFileSync(indexPath, good);
    const real = readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)!;
    const n = real.ids.length;
    // Every parent 5 entries back (the first column): the first entries' parents would come after them.
    writeIndex(nodeFileOps, path, { ...real, numbers: real.numbers.map((v, i) => (i < n ? 5 : v)) }, TEST_INDEX_KEY);
    expect(outcome(path, ASIDE)).toEqual({ ...reference, indexed: 0 });
    // An id twice, or one id too few for the numbers: dropped whole.
    writeIndex(nodeFileOps, path, { ...real, ids: [...real.ids.slice(0, -1), real.ids[0]!] }, TEST_INDEX_KEY);
    expect(outcome(path, ASIDE)).toEqual({ ...reference, indexed: 0 });
    writeIndex(nodeFileOps, path, { ...real, ids: real.ids.slice(1) }, TEST_INDEX_KEY);
    expect(readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)!.ids).toEqual(real.ids.slice(1));
    expect(outcome(path, ASIDE)).toEqual({ ...reference, indexed: 0 });
    // Its JSON part damaged under a CRC that holds: not JSON, ignored.
    writeIndex(nodeFileOps, path, { ...real, state: { v: 2 } }, TEST_INDEX_KEY);
    expect(readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)).not.toBeNull();
    expect(outcome(path, ASIDE)).toEqual({ ...reference, indexed: 0 });

    // The file edited under re-chained checksums (as a writer that meant it would): another last CRC.
    const lines = linesOf(readFileSync(path));
    const body = lines[3]!.subarray(LINE_PREFIX_BYTES, -1).toString('utf8').replace('line 1', 'LINE 1');
    const edited = rechained(lines, 4, Buffer.from(body, 'utf8'));
    writeFileSync(path, edited);
    writeFileSync(indexPath, good);
    const editedReference = outcome(path, ONE_THREAD);
    expect(JSON.stringify(editedReference)).toContain('LINE 1');
    expect(outcome(path, ASIDE)).toEqual({ ...editedReference, indexed: 0 });

    // The file shorter than the index: ignored (and a read-only open leaves both as they are).
    const cut = edited.subarray(0, edited.lastIndexOf(0x0a, edited.length - 2) + 1);
    writeFileSync(path, cut);
    expect(outcome(path, ASIDE)).toEqual({ ...outcome(path, ONE_THREAD), indexed: 0 });
    expect(readFileSync(indexPath).equals(good)).toBe(true);

    // A writable open that found no usable index saves one for the file as it is.
    expect(outcome(path, ASIDE, false).indexed).toBe(0);
    expect(readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)!.bytes).toBe(cut.length);
    expect(outcome(path, ASIDE).indexed).toBe(cut.length);
    rmSync(indexPath);
    expect(outcome(path, ASIDE).indexed).toBe(0);
  });

  it("is ignored when saved under another entry type table than this build's, and the file is replayed", () => {
    const steps: Step[] = Array.from({ length: 8 }, (_, i) => ({
      kind: 'entry',
      parent: i,
      text: `typed ${i}`,
      type: (['user', 'assistant', 'notice'] as const)[i % 3]!,
      lanes: false,
    }));
    const path = indexedSession(steps);
    const reference = outcome(path, ONE_THREAD);
    const real = readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)!;
    const state = real.state as { types: string[] };
    expect(outcome(path, ASIDE).indexed).toBe(real.bytes);
    // A build with one more type early in its table: every later type number shifted by one.
    const types = [...state.types.slice(0, 1), 'inserted', ...state.types.slice(1)];
    expect(writeIndex(nodeFileOps, path, { ...real, state: { ...state, types } }, TEST_INDEX_KEY)).toBe(true);
    expect(outcome(path, ASIDE)).toEqual({ ...reference, indexed: 0 });
    // The same table, reordered.
    writeIndex(nodeFileOps, path, { ...real, state: { ...state, types: [...state.types].reverse() } }, TEST_INDEX_KEY);
    expect(outcome(path, ASIDE)).toEqual({ ...reference, indexed: 0 });
    // An index with no table (as before the table was stored): ignored too.
    writeIndex(nodeFileOps, path, { ...real, state: { ...state, types: undefined } }, TEST_INDEX_KEY);
    expect(outcome(path, ASIDE)).toEqual({ ...reference, indexed: 0 });
  });

  it('is removed when the file is rewritten, and read only if it is a regular file no larger than the session', () => {
    const steps: Step[] = Array.from({ length: 8 }, (_, i) => ({
      kind: 'set',
      ns: 'fact.label',
      key: 'a',
      value: `value ${i}`,
    }));
    const path = indexedSession(steps);
    const indexPath = indexPathOf(path);
    const good = readFileSync(indexPath);
    expect(outcome(path, ASIDE).indexed).toBeGreaterThan(0);

    // Larger than the bound (the open gives the session file's size): not read.
    expect(good.length).toBeLessThan(statSync(path).size);
    expect(readIndex(nodeFileOps, path, good.length, TEST_INDEX_KEY)).not.toBeNull();
    expect(readIndex(nodeFileOps, path, good.length - 1, TEST_INDEX_KEY)).toBeNull();

    // A FIFO at the index's path: the open neither blocks on it nor uses it.
    rmSync(indexPath);
    execFileSync('mkfifo', [indexPath]);
    expect(outcome(path, ASIDE)).toEqual({ ...outcome(path, ONE_THREAD), indexed: 0 });
    rmSync(indexPath);

    // A temporary file a crash left behind is removed by the next write of the index.
    writeFileSync(`${indexPath}.tmp`, 'left by a crash');
    expect(outcome(path, ASIDE, false).indexed).toBe(0);
    expect(readFileSync(indexPath).equals(good)).toBe(true);
    expect(readdirSync(dirname(path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    // Compaction rewrites the file under another header: the index goes with the old file.
    const store = openStore(path, ONE_THREAD);
    expect(store.compactStorage(true)).toBe(true);
    store.close();
    expect(existsSync(indexPath)).toBe(false);
  });

  it('is not read when the file is too small to replay beside the worker', () => {
    const path = indexedSession([{ kind: 'usage', tokens: 3 }]);
    const indexPath = indexPathOf(path);
    expect(existsSync(indexPath)).toBe(true);
    // Every path the open looks at or opens, through the file operations it uses.
    const touched: string[] = [];
    const spies = (['kindOf', 'existsSync', 'openSync', 'readFileSync'] as const).map((name) => {
      const real = nodeFileOps[name] as (at: string, ...rest: unknown[]) => unknown;
      return vi.spyOn(nodeFileOps, name).mockImplementation(((at: string, ...rest: unknown[]) => {
        touched.push(at);
        return real(at, ...rest);
      }) as never);
    });
    try {
      expect(outcome(path, ONE_THREAD).indexed).toBe(0);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(touched).toContain(path);
    expect(touched.filter((at) => at === indexPath)).toEqual([]);
  });

  it('does not stop the worker from refusing a damaged file, or a torn tail from being cut, as without it', () => {
    const steps: Step[] = Array.from({ length: 10 }, (_, i) => ({
      kind: 'entry',
      parent: i,
      text: `text ${i}`,
      type: 'user',
      lanes: i % 2 === 0,
    }));
    const path = indexedSession(steps);
    const original = readFileSync(path);
    const lines = linesOf(original);
    expect(existsSync(indexPathOf(path))).toBe(true);

    // A raw control character in a payload under matching checksums, inside the indexed lines:
    // only the worker's check sees it, and the open is refused in the one-thread words.
    const body = lines[4]!.subarray(LINE_PREFIX_BYTES, -1).toString('utf8').replace('"text":"', '"text":"\u0001');
    writeFileSync(path, rechained(lines, 5, Buffer.from(body, 'utf8')));
    const refused = outcome(path, ASIDE);
    expect(refused.error).toMatch(/^corrupt: .*line 5: checksum matches but the commit is not JSON/);
    expect(refused).toEqual(outcome(path, ONE_THREAD));

    // One flipped bit mid-file: refused the same way.
    const flipped = Buffer.from(original);
    flipped[original.indexOf('text 3') + 2] ^= 4;
    writeFileSync(path, flipped);
    expect(outcome(path, ASIDE).error).toMatch(/^corrupt: /);
    expect(outcome(path, ASIDE)).toEqual(outcome(path, ONE_THREAD));

    // A torn tail after the indexed lines is cut and saved aside, the state as without the index.
    const torn = Buffer.concat([original, Buffer.from('{"c":"0000')]);
    const other = `${path}.copy.jsonl`;
    writeFileSync(path, torn);
    writeFileSync(other, torn);
    const aside = outcome(path, ASIDE, false) as { state: { report: { tornTail: object } } };
    const alone = outcome(other, ONE_THREAD, false) as { state: { report: { tornTail: object } } };
    const noSavedTo = (o: typeof aside): unknown =>
      JSON.stringify({
        ...o.state,
        report: { ...o.state.report, tornTail: { ...o.state.report.tornTail, savedTo: 0 } },
      });
    expect(aside.state.report.tornTail).toMatchObject({ repaired: true });
    expect(noSavedTo(aside)).toBe(noSavedTo(alone));
    expect(readFileSync(path).equals(original)).toBe(true);
  });
});

describe('the lines a saved index covers, checked for their frame and CRC chain only', () => {
  // The header and 12 indexed lines (11 of the same length), then 6 more after the index.
  const same = (from: number, n: number): Step[] =>
    Array.from({ length: n }, (_, i) => ({
      kind: 'entry',
      parent: from + i,
      text: `text ${from + i} of ${'x'.repeat(4)}`,
      type: 'user',
      lanes: false,
    }));
  const path = indexedSession(same(10, 11), same(30, 6));
  const original = readFileSync(path);
  const lines = linesOf(original);
  const good = readFileSync(indexPathOf(path));
  const real = readIndex(nodeFileOps, path, original.length, TEST_INDEX_KEY)!;
  const indexedLines = real.commitLines + 1;
  afterAll(() => dropEarlyCheck());

  it('still refuses a flipped bit or a swapped, deleted or duplicated line, inside the index or after it, naming the line a full check names', () => {
    expect(indexedLines).toBe(13);
    expect(outcome(path, ASIDE).indexed).toBe(real.bytes);
    fc.assert(
      fc.property(
        fc.constantFrom('flip', 'swap', 'delete', 'duplicate'),
        fc.integer({ min: 1, max: lines.length - 1 }),
        fc.nat(),
        (kind, at, bit) => {
          const changed = [...lines];
          if (kind === 'flip') {
            const line = Buffer.from(changed[at]!);
            line[LINE_PREFIX_BYTES + (bit % (line.length - LINE_PREFIX_BYTES - 1))] ^= 1 << (bit % 8);
            changed[at] = line;
          } else if (kind === 'swap') {
            const other = at === lines.length - 1 ? at - 1 : at + 1;
            [changed[at], changed[other]] = [changed[other]!, changed[at]!];
          } else if (kind === 'delete') changed.splice(at, 1);
          else changed.splice(at, 0, changed[at]!);
          writeFileSync(path, `${changed.map((l) => l.toString('latin1')).join('\n')}\n`, 'latin1');
          writeFileSync(indexPathOf(path), good);
          const alone = outcome(path, ONE_THREAD);
          expect(outcome(path, ASIDE)).toEqual(
            alone.error === undefined ? { ...alone, indexed: expect.any(Number) } : alone,
          );
          // A bad last line is a torn tail (reported, not refused): both opens agree on it above.
          if (at < lines.length - 2) expect(alone.error).toMatch(/^corrupt: .*line \d+/);
        },
      ),
      { seed: testSeed('indexed lines damaged'), numRuns: fcRuns(0.24) },
    );
    writeFileSync(path, original);
  });

  it('checks the JSON of the lines after the index, and a line inside it only through its CRC: a forged one is named when its payload is read', () => {
    // A raw control character (same length) in a payload under re-chained checksums, after the index.
    const spoiled = (lineNo: number): Buffer => {
      const body = lines[lineNo - 1]!.subarray(LINE_PREFIX_BYTES, -1).toString('latin1').replace('text ', 'text\u0001');
      return rechained(lines, lineNo, Buffer.from(body, 'latin1'));
    };
    const after = indexedLines + 2;
    writeFileSync(path, spoiled(after));
    writeFileSync(indexPathOf(path), good);
    const refused = outcome(path, ASIDE);
    expect(refused.error).toMatch(new RegExp(`^corrupt: .*line ${after}: checksum matches but the commit is not JSON`));
    expect(refused).toEqual(outcome(path, ONE_THREAD));

    // The same inside the index, and the index forged to the new last CRC (as only a forger could):
    // the open uses the index and the check passes the line, whose payload read names it.
    const inside = 5;
    const forged = spoiled(inside);
    writeFileSync(path, forged);
    const atN = forged.subarray(forged.lastIndexOf(0x0a, real.bytes - 2) + 1, real.bytes);
    writeIndex(
      nodeFileOps,
      path,
      { ...real, lastCrc: Number.parseInt(atN.toString('latin1', 6, 14), 16) },
      TEST_INDEX_KEY,
    );
    const forgedIndex = readFileSync(indexPathOf(path));
    expect(outcome(path, ONE_THREAD).error).toMatch(new RegExp(`^corrupt: .*line ${inside}: checksum matches`));
    const readPayloads = (opened: SessionStore): string => {
      try {
        for (const entry of opened.tree.all()) void entry.payload;
        return 'read';
      } catch (error) {
        return `${(error as { kind?: string }).kind}: ${(error as Error).message}`;
      }
    };
    const store = openStore(path, { readOnly: true, ...ASIDE });
    expect(store.indexedBytes).toBe(real.bytes);
    const named = readPayloads(store);
    store.close();
    expect(named).toMatch(new RegExp(`^corrupt: ${path} line ${inside}: the payload of entry .* is not JSON`));
    expect(named).toContain(`move ${path}.index aside and open the session again`);
    expect(readFileSync(path).equals(forged)).toBe(true);

    // The check begun before the open reads the index's bound itself, and keeps it when the open earns it.
    expect(startEarlyCheck(path, 0)!.check.checkedAll(10_000)).toBe(true);
    const early = openStore(path, { readOnly: true, ...ASIDE });
    expect(early.indexedBytes).toBe(real.bytes);
    early.close();
    // An early check that skipped that JSON for an index the open then does not use: checked again, refused.
    expect(startEarlyCheck(path, 0)!.check.checkedAll(10_000)).toBe(true);
    rmSync(indexPathOf(path));
    expect(outcome(path, ASIDE)).toEqual(outcome(path, ONE_THREAD));
    // And with no index at all, the full check as before.
    expect(outcome(path, ASIDE).error).toMatch(new RegExp(`^corrupt: .*line ${inside}: checksum matches`));
    writeFileSync(indexPathOf(path), forgedIndex);
    writeFileSync(path, original);
    writeFileSync(indexPathOf(path), good);
  });
});

describe('the line check in pieces', () => {
  it('names the same first bad line as one pass, with the work split between the worker and this thread at any piece size, JSON skipped only where earned', () => {
    const sub = join(dir.path, 'pieces');
    mkdirSync(sub);
    const store = createStore(sub);
    commitSteps(
      store,
      Array.from(
        { length: 30 },
        (_, i) => ({ kind: 'entry', parent: i, text: `piece ${i} é`, type: 'user', lanes: i % 3 === 0 }) as Step,
      ),
    );
    store.close();
    const original = readFileSync(store.path);
    const lines = linesOf(original);
    const from = lines[0]!.length + 1;
    const seed = crc32(lines[0]!);
    fc.assert(
      fc.property(
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 400 }),
        fc.boolean(),
        fc.constantFrom('none', 'byte', 'rechained'),
        fc.nat({ max: original.length + 10 }),
        fc.option(fc.nat({ max: original.length + 10 })),
        (at, byte, damage, piece, help, how, trusted, earned) => {
          let file: Buffer = original;
          if (how === 'rechained') {
            // A byte of a commit changed under checksums chained again: only its JSON can be wrong.
            const lineNo = 2 + (at % (lines.length - 1));
            const body = Buffer.from(lines[lineNo - 1]!.subarray(LINE_PREFIX_BYTES, -1));
            body[byte % body.length] = byte;
            file = rechained(lines, lineNo, body);
          }
          const bytes = Buffer.from(new SharedArrayBuffer(file.length));
          file.copy(bytes);
          if (damage && how === 'byte') bytes[from + (at % (original.length - from))] = byte;
          // JSON is left unchecked only before an offered bound the open earned.
          const kept = earned !== null && trusted <= earned ? trusted : 0;
          const expected = firstBadLine(bytes, from, bytes.length, seed, crc32, jsonSkipper(false), kept);
          const check = new AsideCheck(bytes);
          if (help) check.haveRead();
          check.trust(trusted);
          check.begin(from, bytes.length, seed, piece);
          if (earned !== null) check.settle(earned);
          expect(check.answer()).toBe(expected);
          expect(check.answeredBy).not.toBeNull();
          check.stop();
        },
      ),
      { seed: testSeed('line check pieces'), numRuns: fcRuns(0.3) },
    );
  });
});
