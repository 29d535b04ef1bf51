import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSession, openStore, tempDir } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

/** Lines with their newlines, so that joining them gives the file back. */
function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, i + 1));
    start = i + 1;
  }
  return lines;
}

describe('a session file whose lines were edited', () => {
  const built = buildSession(dir.path);
  built.store.close();
  const lines = splitLines(readFileSync(built.path));
  const n = lines.length;

  const cases: { name: string; edit: (ls: Buffer[]) => Buffer[]; line: number }[] = [
    { name: 'a middle line duplicated', edit: (ls) => [...ls.slice(0, 5), ls[4]!, ...ls.slice(5)], line: 6 },
    { name: 'the last line duplicated', edit: (ls) => [...ls, ls[n - 1]!], line: n + 1 },
    { name: 'an earlier line repeated at the end', edit: (ls) => [...ls, ls[3]!], line: n + 1 },
    { name: 'a middle line deleted', edit: (ls) => [...ls.slice(0, 4), ...ls.slice(5)], line: 5 },
    { name: 'the first commit deleted', edit: (ls) => [ls[0]!, ...ls.slice(2)], line: 2 },
    {
      name: 'two middle lines swapped',
      edit: (ls) => [...ls.slice(0, 3), ls[5]!, ls[4]!, ls[3]!, ...ls.slice(6)],
      line: 4,
    },
    { name: 'the last two lines swapped', edit: (ls) => [...ls.slice(0, n - 2), ls[n - 1]!, ls[n - 2]!], line: n - 1 },
    {
      name: 'a line copied from another session',
      edit: (ls) => [...ls.slice(0, 3), otherSessionLine(), ...ls.slice(3)],
      line: 4,
    },
  ];

  it.each(cases)('is refused, naming the line: $name', ({ edit, line }) => {
    const file = join(dir.path, `edited-${line}.jsonl`);
    const edited = Buffer.concat(edit(lines));
    writeFileSync(file, edited);
    expect(() => openStore(file)).toThrowError(
      expect.objectContaining({ kind: 'corrupt', details: expect.objectContaining({ line }) }),
    );
    expect(() => openStore(file)).toThrowError(`line ${line}:`);
    expect(readFileSync(file).equals(edited), 'the refused file is left as it was').toBe(true);
  });

  it('opens when untouched (the cases above fail for the edit, not the fixture)', () => {
    const store = openStore(built.path);
    expect(store.report.tornTail).toBeNull();
    expect(store.report.commitLines).toBe(n - 1);
    store.close();
  });
});

function otherSessionLine(): Buffer {
  const other = buildSession(dir.path);
  other.store.close();
  return splitLines(readFileSync(other.path))[3]!;
}
