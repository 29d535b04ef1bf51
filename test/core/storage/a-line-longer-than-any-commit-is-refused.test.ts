/**
 * A session file a repository or a team server hands over can hold a line no tole ever wrote: one
 * longer than the largest commit (MAX_COMMIT_BYTES), under a checksum that matches. Seen with the
 * built tole: a 60 MB line appended to a real session was refused by `tole check` and by the
 * one-thread replay, but the open of a file of 8 MiB or more (replayed beside the worker's check)
 * took it in, and the next turn wrote after it; a line a little over the limit passed the
 * one-thread replay too (its newline was found within the pieces read). Every open refuses it now,
 * naming the line, and changes nothing; a line of exactly the limit still opens.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LINE_PREFIX_BYTES } from '../../../src/core/storage/line-codec';
import { MAX_COMMIT_BYTES } from '../../../src/core/storage/records';
import { buildSession, linesOf, openStore, rechained, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

const built = buildSession(dir.path);
built.store.close();
const lines = linesOf(readFileSync(built.path));
const lastSeq = (() => {
  const body = JSON.parse(
    lines
      .at(-1)!
      .subarray(LINE_PREFIX_BYTES, lines.at(-1)!.length - 1)
      .toString('utf8'),
  );
  return Math.max(...[body].flat().map((r: { seq: number }) => r.seq));
})();

const head = `[{"kind":"register","seq":${lastSeq + 1},"op":"set","namespace":"fact.label","key":"big","value":"`;
const tail = '"}]';

/** The session with one more commit line whose commit is `bodyBytes` bytes of JSON, chained right. */
function withCommitOf(bodyBytes: number): Buffer {
  const body = Buffer.alloc(bodyBytes, 0x41);
  body.write(head, 0, 'latin1');
  body.write(tail, bodyBytes - tail.length, 'latin1');
  return rechained([...lines, Buffer.from('placeholder')], lines.length + 1, body);
}

const ways = {
  'one thread': { asideMinBytes: Number.POSITIVE_INFINITY },
  'beside the worker': { asideMinBytes: 0 },
} as const;

function opened(file: string, how: { asideMinBytes: number }, readOnly: boolean): string {
  try {
    const store = openStore(file, { readOnly, ...how });
    const label = store.registers.cell('fact.label', 'big')?.value;
    store.close();
    return `opened: ${typeof label === 'string' ? label.length : 'no label'}`;
  } catch (error) {
    return `${(error as { kind?: string }).kind}: ${(error as Error).message}`;
  }
}

describe('a commit line longer than any tole writes', () => {
  for (const [way, how] of Object.entries(ways)) {
    for (const [what, extra] of [
      ['one byte over the limit', 1],
      ['16 MiB over it', 16 * 1024 * 1024],
      ['44 MiB over it (the 60 MB line seen)', 44 * 1024 * 1024],
    ] as const) {
      it(`is refused, naming the line, ${what}, read ${way}`, () => {
        const file = join(dir.path, `long-${extra}.jsonl`);
        const bytes = withCommitOf(MAX_COMMIT_BYTES + extra);
        writeFileSync(file, bytes);
        for (const readOnly of [true, false]) {
          expect(opened(file, how, readOnly)).toMatch(
            new RegExp(`^corrupt: .*line ${lines.length + 1}: .*longer than any commit.*not torn; nothing was changed`),
          );
        }
        expect(readFileSync(file).equals(bytes), 'the refused file is left as it was').toBe(true);
      });
    }

    it(`opens a line of exactly the limit, read ${way}`, () => {
      const file = join(dir.path, 'at-the-limit.jsonl');
      writeFileSync(file, withCommitOf(MAX_COMMIT_BYTES));
      expect(opened(file, how, false)).toBe(`opened: ${MAX_COMMIT_BYTES - head.length - tail.length}`);
    });
  }
});
