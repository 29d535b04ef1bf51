/**
 * The first open of a session without a saved index reads the lines written the way tole writes
 * them with the column scan and hands its columns to the store as they are (column-scan.ts,
 * store-snapshot.ts). Against a file someone else wrote or damaged, that open must give what a
 * record-by-record replay of the same file gives: the same tree, payloads, registers, deletes,
 * usage, counters and torn-tail report, or the same refusal in the same words. The files here are
 * sessions tole wrote, then cut (a torn tail), bit-flipped, or edited inside a line and chained
 * again (a crafted file: every frame and CRC holds, only the JSON says something else), with lines
 * repeated or swapped.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LINE_PREFIX_BYTES } from '../../../src/core/storage/line-codec';
import { indexPathOf } from '../../../src/core/storage/session-index';
import { fcRuns } from '../../support/fc-runs';
import { ONE_THREAD, openOutcome as outcome, SCANNED } from '../../support/open-outcome';
import { buildSession, linesOf, openStore, rechained, tempDir, testSeed } from '../../support/storage-fixtures';

const dir = tempDir('tole-scan-damage-');
afterAll(() => dir.remove());

/** Bytes an edit puts into a line's JSON: the ones that change what it means, or how it is written. */
const edits = fc.constantFrom(
  '"',
  '\\',
  ',',
  '}',
  '{',
  ']',
  '[',
  ':',
  '0',
  '1',
  '9',
  '-',
  '.',
  'e',
  ' ',
  'null',
  '"e_1"',
  '\\u0065',
  '1e3',
  '-0',
  '',
  '\u00e9',
);

const damage = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      line: fc.nat(),
      at: fc.nat(),
      drop: fc.integer({ min: 0, max: 3 }),
      put: edits,
    }),
  },
  fc.record({ kind: fc.constant('repeat' as const), line: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), line: fc.nat() }),
);
type Damage = typeof damage extends fc.Arbitrary<infer T> ? T : never;

/** The file after `d`: commit lines edited, repeated or swapped are chained again, as a crafted file would be. */
function damaged(file: Buffer, d: Damage): Buffer {
  if (d.kind === 'cut') return file.subarray(0, d.at % (file.length + 1));
  if (d.kind === 'flip') {
    const out = Buffer.from(file);
    out[d.at % out.length]! ^= 1 << d.bit;
    return out;
  }
  // Lines are edited only in a file of whole lines with a commit.
  if (file.at(-1) !== 0x0a) return file;
  const lines = linesOf(file);
  const commits = lines.length - 1;
  if (commits < 1) return file;
  const lineNo = 2 + (d.line % commits);
  const bodyOf = (line: Buffer): Buffer => line.subarray(LINE_PREFIX_BYTES, line.length - 1);
  if (d.kind === 'edit') {
    const body = bodyOf(lines[lineNo - 1]!);
    const at = d.at % (body.length + 1);
    const edited = Buffer.concat([body.subarray(0, at), Buffer.from(d.put), body.subarray(at + d.drop)]);
    return rechained(lines, lineNo, edited);
  }
  const moved = [...lines];
  if (d.kind === 'repeat') moved.splice(2 + (d.to % commits), 0, lines[lineNo - 1]!);
  else if (lineNo < lines.length) [moved[lineNo - 1], moved[lineNo]] = [moved[lineNo]!, moved[lineNo - 1]!];
  return rechained(moved, 2, bodyOf(moved[1]!));
}

describe('the first open of a damaged or crafted session without a saved index', () => {
  const built = buildSession(dir.path, { endWithArray: true });
  built.store.close();
  const original = readFileSync(built.path);
  let made = 0;

  it('gives what a record-by-record replay of the same bytes gives', () => {
    let refused = 0;
    let opened = 0;
    fc.assert(
      fc.property(fc.array(damage, { minLength: 1, maxLength: 3 }), (damages) => {
        const bytes = damages.reduce(damaged, original);
        const path = built.path.replace(/\.jsonl$/, `-${made++}.jsonl`);
        writeFileSync(path, bytes);
        const scanned = outcome(path, SCANNED);
        expect(scanned).toEqual(outcome(path, ONE_THREAD));
        if (typeof scanned === 'string') refused++;
        else opened++;
      }),
      { seed: testSeed('damaged scan'), numRuns: fcRuns(2) },
    );
    // The property says something only when both kinds of outcome came up.
    expect(refused).toBeGreaterThan(0);
    expect(opened).toBeGreaterThan(0);
  });

  it('gives the same with the saved index of the undamaged file beside it as without one', () => {
    // A writable open of the whole file on two threads saves its state beside it.
    const whole = built.path.replace(/\.jsonl$/, '-indexed.jsonl');
    writeFileSync(whole, original);
    openStore(whole, SCANNED).close();
    expect(existsSync(indexPathOf(whole))).toBe(true);
    const index = readFileSync(indexPathOf(whole));
    fc.assert(
      fc.property(fc.array(damage, { minLength: 1, maxLength: 2 }), (damages) => {
        const bytes = damages.reduce(damaged, original);
        const path = built.path.replace(/\.jsonl$/, `-${made++}.jsonl`);
        writeFileSync(path, bytes);
        const bare = outcome(path, ONE_THREAD);
        writeFileSync(indexPathOf(path), index);
        expect(outcome(path, SCANNED)).toEqual(bare);
      }),
      { seed: testSeed('damaged beside an index'), numRuns: fcRuns(1) },
    );
  });
});
