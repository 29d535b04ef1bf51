import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildSession,
  entryCommit,
  lineStarts,
  memoryTempDir,
  openStore,
  snapshot,
} from '../../support/storage-fixtures';

// Hundreds of opens, repairs and commits, each fsyncing: in memory, where an fsync waits on no disk.
const dir = memoryTempDir();
afterAll(() => dir.remove());

describe.each([
  { ending: 'a single record', endWithArray: false },
  { ending: 'an array of records', endWithArray: true },
])('a session whose last commit is $ending, cut at every byte of its last line', ({ endWithArray }) => {
  const built = buildSession(dir.path, { endWithArray });
  built.store.close();
  const whole = readFileSync(built.path);
  const lastLineStart = lineStarts(whole).at(-1)!;
  const committed = built.states.length - 1;

  it('has a last line worth cutting', () => {
    expect(whole.length - lastLineStart).toBeGreaterThan(100);
    expect(whole[whole.length - 1]).toBe(0x0a);
  });

  it('reopens to exactly the committed prefix, repairs the tail, and then commits and reopens fine', () => {
    const file = join(dir.path, `cut-${endWithArray ? 'array' : 'single'}.jsonl`);
    for (let cut = lastLineStart; cut <= whole.length; cut++) {
      writeFileSync(file, whole.subarray(0, cut));
      const store = openStore(file);
      const expected = cut === whole.length ? built.states[committed]! : built.states[committed - 1]!;
      expect(snapshot(store), `cut at ${cut}`).toEqual(expected);
      const partial = cut > lastLineStart && cut < whole.length;
      expect(store.report.tornTail !== null, `torn tail reported at cut ${cut}`).toBe(partial);
      if (partial) {
        expect(store.report.tornTail).toMatchObject({
          line: lineStarts(whole).length,
          offset: lastLineStart,
          bytes: cut - lastLineStart,
          repaired: true,
        });
        expect(statSync(file).size, `file truncated at cut ${cut}`).toBe(lastLineStart);
      }
      const leaf = store.registers.get<string>('lane.leaf', 'main')!;
      const [after] = store.commit(entryCommit(store, leaf, `after the cut at ${cut} ✓`));
      const state = snapshot(store);
      store.close();
      const reopened = openStore(file);
      expect(reopened.report.tornTail, `no tail after the repair, cut ${cut}`).toBeNull();
      expect(snapshot(reopened)).toEqual(state);
      expect(reopened.entry((after as { id: string }).id)?.payload).toEqual({ text: `after the cut at ${cut} ✓` });
      reopened.close();
    }
  });
});
