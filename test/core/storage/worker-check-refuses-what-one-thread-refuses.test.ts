import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type FileOps, nodeFileOps } from '../../../src/core/storage/file-ops';
import { jsonSkipper } from '../../../src/core/storage/json-skip';
import { replayJsonlAside } from '../../../src/core/storage/jsonl-replay-aside';
import { LINE_PREFIX_BYTES } from '../../../src/core/storage/line-codec';
import { AsideCheck, firstBadLine } from '../../../src/core/storage/verify-aside';
import {
  buildSession,
  linesOf,
  openStore,
  rechained,
  snapshot,
  tempDir,
  testSeed,
} from '../../support/storage-fixtures';
import { fcRuns } from '../../support/fc-runs';

const dir = tempDir();
afterAll(() => dir.remove());

/** A worker checks the file while it replays (any size), or one thread reads and checks it alone. */
const ASIDE = { asideMinBytes: 0 };
const ONE_THREAD = { asideMinBytes: Number.POSITIVE_INFINITY };

/** What an open gives: the error it throws, or the state and report it replays. */
function outcome(file: string, how: { asideMinBytes: number }, readOnly: boolean): unknown {
  try {
    const store = openStore(file, { readOnly, ...how });
    const result = { state: snapshot(store), report: store.report };
    store.close();
    return result;
  } catch (error) {
    return `${(error as { kind?: string }).kind}: ${(error as Error).message}`;
  }
}

const built = buildSession(dir.path);
built.store.close();
const original = readFileSync(built.path);
const lines = linesOf(original);

describe('a session file checked by a worker while it replays', () => {
  it('replays to the state and report of the one-thread replay', () => {
    const aside = outcome(built.path, ASIDE, false);
    expect(aside).toEqual(outcome(built.path, ONE_THREAD, false));
    expect(aside).toMatchObject({ state: built.states.at(-1) });
    expect(readFileSync(built.path).equals(original)).toBe(true);
  });

  it('refuses, naming the line, damage under a matching checksum that only the worker sees (a raw control character in a payload string)', () => {
    // The replay beside the worker only looks for where strings end; the worker checks every byte.
    const file = join(dir.path, 'control.jsonl');
    const body = lines[2]!.subarray(LINE_PREFIX_BYTES, lines[2]!.length - 1).toString('utf8');
    const damaged = body.replace('"text":"', '"text":"\t');
    expect(damaged).not.toBe(body);
    const bytes = rechained(lines, 3, Buffer.from(damaged, 'utf8'));
    writeFileSync(file, bytes);
    const refused = outcome(file, ASIDE, false);
    expect(refused).toMatch(/^corrupt: .*line 3: checksum matches but the commit is not JSON/);
    expect(refused).toBe(outcome(file, ONE_THREAD, false));
    expect(outcome(file, ASIDE, true)).toBe(refused);
    expect(readFileSync(file).equals(bytes), 'the refused file is left as it was').toBe(true);
  });

  it('keeps what it replayed when the worker passes the file, and starts over on one thread when it does not', () => {
    const replay = (
      file: string,
      how: { ops?: FileOps; headReadBytes?: number } = {},
    ): { commits: number; restarts: number; error: string | null } => {
      const fd = openSync(file, 'r');
      let commits = 0;
      let restarts = 0;
      let error: string | null = null;
      try {
        const onRestart = (): void => {
          restarts++;
          commits = 0;
        };
        const ops = how.ops ?? nodeFileOps;
        replayJsonlAside(ops, fd, file, () => void commits++, onRestart, 0, how.headReadBytes);
      } catch (e) {
        error = (e as Error).message;
      } finally {
        closeSync(fd);
      }
      return { commits, restarts, error };
    };
    const file = join(dir.path, 'control-direct.jsonl');
    const body = lines[2]!.subarray(LINE_PREFIX_BYTES, lines[2]!.length - 1).toString('utf8');
    writeFileSync(file, rechained(lines, 3, Buffer.from(body.replace('"text":"', '"text":"\u0001'), 'utf8')));
    // This thread reads the whole file; the worker reads all but the first 64 bytes; injected
    // file operations (not the real ones) make this thread read it all, the worker only checking.
    for (const how of [{}, { headReadBytes: 64 }, { ops: { ...nodeFileOps } }]) {
      expect(replay(built.path, how)).toEqual({ commits: lines.length - 1, restarts: 0, error: null });
      expect(replay(file, how)).toEqual({
        commits: 1,
        restarts: 1,
        error: expect.stringContaining('line 3: checksum matches'),
      });
    }
  });

  it('cuts a torn tail on a writable open exactly as the one-thread replay does', () => {
    const cut = original.subarray(0, original.length - 9);
    const [a, b] = [join(dir.path, 'torn-a.jsonl'), join(dir.path, 'torn-b.jsonl')];
    writeFileSync(a, cut);
    writeFileSync(b, cut);
    const aside = outcome(a, ASIDE, false) as { report: { tornTail: { savedTo?: string } } };
    const alone = outcome(b, ONE_THREAD, false) as { report: { tornTail: { savedTo?: string } } };
    expect(aside.report.tornTail).toMatchObject({ line: lines.length, repaired: true });
    const withoutSavedTo = (o: typeof aside): unknown => ({
      ...o,
      report: { ...o.report, tornTail: { ...o.report.tornTail, savedTo: undefined } },
    });
    expect(withoutSavedTo(aside)).toEqual(withoutSavedTo(alone));
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
  });

  it('gives the one-thread outcome for any one damaged byte, with the checksums chained again or not', () => {
    const file = join(dir.path, 'damaged.jsonl');
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean(), (at, byte, rechain) => {
        const bytes = Buffer.from(original);
        const offset = lines[0]!.length + 1 + (at % (original.length - lines[0]!.length - 1));
        bytes[offset] = byte;
        let damaged: Buffer = bytes;
        if (rechain && !linesOf(bytes).some((line) => line.length < LINE_PREFIX_BYTES + 2)) {
          const split = linesOf(bytes);
          if (split.length === lines.length) damaged = rechained(split, 2, split[1]!.subarray(LINE_PREFIX_BYTES, -1));
        }
        writeFileSync(file, damaged);
        expect(outcome(file, ASIDE, true)).toEqual(outcome(file, ONE_THREAD, true));
      }),
      { seed: testSeed('worker check damage'), numRuns: fcRuns(0.6) },
    );
  });
});

describe('the line check', () => {
  it('names the first line whose frame, chained checksum or JSON is bad, in a worker as on this thread', () => {
    const from = lines[0]!.length + 1;
    const seed = crc32(lines[0]!);
    const check = (bytes: Buffer): number => firstBadLine(bytes, from, bytes.length, seed, crc32, jsonSkipper(false));
    expect(check(original)).toBe(-1);
    const third = from + lines[1]!.length + 1 + lines[2]!.length + 1;
    const flipped = Buffer.from(original);
    flipped[third + 30] ^= 1;
    expect(check(flipped)).toBe(2);
    const body = lines[4]!.subarray(LINE_PREFIX_BYTES, -1).toString('utf8').replace('"text":"', '"text":"\u0001');
    const controlled = rechained(lines, 5, Buffer.from(body, 'utf8'));
    expect(check(controlled)).toBe(3);
    expect(check(original.subarray(0, original.length - 1))).toBe(lines.length - 2);

    for (const bytes of [original, flipped, controlled]) {
      const shared = Buffer.from(new SharedArrayBuffer(bytes.length));
      bytes.copy(shared);
      const aside = new AsideCheck(shared);
      aside.begin(from, shared.length, seed);
      expect(aside.answer()).toBe(check(bytes));
      expect(aside.answeredBy).toBe('worker');
      aside.stop();
    }
  });

  it('answers the same on this thread alone when told to start no worker', () => {
    const from = lines[0]!.length + 1;
    const seed = crc32(lines[0]!);
    const flipped = Buffer.from(original);
    flipped[from + lines[1]!.length + 1 + 30] ^= 1;
    for (const bytes of [original, flipped]) {
      const shared = Buffer.from(new SharedArrayBuffer(bytes.length));
      bytes.copy(shared);
      const alone = new AsideCheck(shared, undefined, { worker: false });
      alone.haveRead();
      // Pieces of 64 bytes: this thread takes every one of them.
      alone.begin(from, shared.length, seed, 64);
      expect(alone.answer()).toBe(firstBadLine(bytes, from, bytes.length, seed, crc32, jsonSkipper(false)));
      expect(alone.answeredBy).toBe('this thread');
      alone.stop();
    }
    expect(() => new AsideCheck(Buffer.alloc(8), { fd: 0, from: 0 }, { worker: false })).toThrow(/assert/);
  });

  it('is as strict as JSON.parse on the commit text', () => {
    const header = Buffer.from('{}');
    const seed = crc32(header);
    const jsonish = fc.constantFrom(...'{}[]":,\\ \t\r0123456789-+.eEtrufalsn_u\u0001\u00e9'.split(''));
    const text = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.array(jsonish, { maxLength: 12 }).map((cs) => cs.join('')),
      fc.tuple(fc.jsonValue(), fc.nat(), fc.array(jsonish, { minLength: 1, maxLength: 2 })).map(([v, at, insert]) => {
        const t = JSON.stringify(v);
        const i = at % (t.length + 1);
        return t.slice(0, i) + insert.join('') + t.slice(i + 1);
      }),
    );
    fc.assert(
      fc.property(text, (commit) => {
        const body = Buffer.from(commit, 'utf8');
        const crc = crc32(body, seed);
        const line = Buffer.concat([
          Buffer.from(`{"c":"${crc.toString(16).padStart(8, '0')}","r":`),
          body,
          Buffer.from('}\n'),
        ]);
        let parses = true;
        try {
          JSON.parse(commit);
        } catch {
          parses = false;
        }
        const answer = firstBadLine(line, 0, line.length, seed, crc32, jsonSkipper(false));
        expect(answer === -1).toBe(parses && !commit.includes('\n'));
      }),
      { seed: testSeed('line check strictness'), numRuns: fcRuns() },
    );
  });
});
