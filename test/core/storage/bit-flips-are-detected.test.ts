import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/clock';
import { isStorageError } from '../../../src/core/storage/errors';
import { buildSession, lineStarts, openStore, snapshot, tempDir, testSeed } from '../../support/storage-fixtures';

const dir = tempDir();
afterAll(() => dir.remove());

/** 1-based line holding byte `offset` (a newline belongs to the line it ends). */
function lineOf(starts: readonly number[], offset: number): number {
  let line = 0;
  while (line < starts.length && starts[line]! <= offset) line++;
  return line;
}

describe('a single flipped bit anywhere in a session file', () => {
  const built = buildSession(dir.path, { endWithArray: true });
  built.store.close();
  const whole = readFileSync(built.path);
  const starts = lineStarts(whole);
  const lastLine = starts.length;
  const committed = built.states.length - 1;

  it('is always detected: a torn tail in the last line, a refusal naming the line elsewhere', () => {
    const seed = testSeed('bit flips');
    const random = seededRandom(seed);
    const file = join(dir.path, 'flipped.jsonl');
    const outcomes = { torn: 0, refused: 0 };
    for (let i = 0; i < 200; i++) {
      const offset = Math.floor(random.float() * whole.length);
      const bit = Math.floor(random.float() * 8);
      const flipped = Buffer.from(whole);
      flipped[offset]! ^= 1 << bit;
      writeFileSync(file, flipped);
      const line = lineOf(starts, offset);
      const where = `seed ${seed}, flip ${i}: bit ${bit} of byte ${offset} (line ${line})`;
      let opened: ReturnType<typeof openStore> | null = null;
      try {
        opened = openStore(file);
      } catch (error) {
        expect(isStorageError(error), where).toBe(true);
        if (!isStorageError(error)) throw error;
        expect(['corrupt', 'version'], where).toContain(error.kind);
        const named = line === 1 ? [1, 2] : [line];
        expect(named, `${where}: refusal names line ${error.details.line}: ${error.message}`).toContain(
          error.details.line,
        );
        expect(error.message).toContain(`line ${error.details.line}`);
        expect(readFileSync(file).equals(flipped), `${where}: a refused file is left untouched`).toBe(true);
        outcomes.refused++;
        continue;
      }
      const state = snapshot(opened);
      const torn = opened.report.tornTail;
      opened.close();
      expect(line, `${where}: accepted a flip outside the last line`).toBe(lastLine);
      expect(torn?.line, where).toBe(lastLine);
      expect(state, `${where}: accepted changed data`).toEqual(built.states[committed - 1]);
      outcomes.torn++;
    }
    expect(outcomes.torn + outcomes.refused).toBe(200);
  });

  it('in the newline between the last two lines is corruption, not a torn tail', () => {
    const newlineOfSecondLast = starts[lastLine - 1]! - 1;
    for (let bit = 0; bit < 8; bit++) {
      const flipped = Buffer.from(whole);
      flipped[newlineOfSecondLast]! ^= 1 << bit;
      const file = join(dir.path, `newline-${bit}.jsonl`);
      writeFileSync(file, flipped);
      expect(() => openStore(file), `bit ${bit}`).toThrowError(
        expect.objectContaining({ kind: 'corrupt', details: expect.objectContaining({ line: lastLine - 1 }) }),
      );
    }
  });
});
