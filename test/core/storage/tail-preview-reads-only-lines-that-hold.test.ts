import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentHead } from '../../../src/core/session/cursor';
import { previewOf, readTailPreview } from '../../../src/core/storage/tail-preview';
import type { SessionStore } from '../../../src/core/storage/session-store';
import { tempDirForTest } from '../../support/after-the-test';
import { commitTurns } from '../../support/session-turns';
import { createStore, linesOf, rechained } from '../../support/storage-fixtures';

/** A session of `turns` prompt/answer commits on main, a side branch early on, the head back on main. */
function session(turns: number): SessionStore {
  const store = createStore(tempDirForTest('tole-tail-preview-'));
  commitTurns(store, turns, { question: (i) => `question ${i}`, answer: (i) => `answer ${i}`, sideBranchAt: 2 });
  // The file is read as it lies: no lock or handle of this writer is needed.
  store.close();
  return store;
}

const ids = (path: readonly { id: string }[]): string[] => path.map((e) => e.id);

describe('the preview of a session file from its tail', () => {
  it('names the head the file ends on and its path as far back as the tail holds it', () => {
    const store = session(200);
    const whole = store.tree.pathTo(currentHead(store).entryId);
    const preview = readTailPreview(store.path, 8 * 1024)!;
    expect(preview.sessionId).toBe(store.header.id);
    expect(preview.head).toEqual(currentHead(store));
    // Mid-file: a suffix of the checked path, ending at the head, and shorter than the whole.
    expect(preview.path.length).toBeGreaterThan(10);
    expect(preview.path.length).toBeLessThan(whole.length);
    expect(ids(preview.path)).toEqual(ids(whole.slice(-preview.path.length)));
    expect(preview.path.map((e) => e.payload)).toEqual(whole.slice(-preview.path.length).map((e) => e.payload));
  });

  it('reads the whole path when the tail reaches the first commit (chained from the header)', () => {
    const store = session(5);
    const preview = readTailPreview(store.path)!;
    expect(ids(preview.path)).toEqual(ids(store.tree.pathTo(currentHead(store).entryId)));
  });

  it('gives no preview when a line of the tail breaks the chain, is torn, or has no frame', () => {
    const store = session(50);
    const bytes = readFileSync(store.path);
    // A flipped byte in a body near the end: its CRC no longer holds.
    const flipped = Buffer.from(bytes);
    const at = bytes.length - 40;
    flipped[at] = flipped[at]! ^ 0x01;
    writeFileSync(store.path, flipped);
    expect(readTailPreview(store.path, 4096)).toBeNull();
    // A torn last line (the open copies it aside and says so).
    writeFileSync(store.path, bytes.subarray(0, bytes.length - 7));
    expect(readTailPreview(store.path, 4096)).toBeNull();
    // A line that is not a commit line.
    writeFileSync(store.path, Buffer.concat([bytes, Buffer.from('{"not":"a commit"}\n')]));
    expect(readTailPreview(store.path, 4096)).toBeNull();
  });

  it('keeps only what links to the head: an entry of an unknown type or a parent outside the tail ends the path', () => {
    const store = session(3);
    const bytes = readFileSync(store.path);
    const lines = linesOf(bytes);
    const path = store.tree.pathTo(currentHead(store).entryId);
    const at = lines.findIndex((line) => line.includes(`"id":"${path[2]!.id}"`));
    const body = lines[at]!.subarray(20, lines[at]!.length - 1)
      .toString('utf8')
      .replace('"type":"user"', '"type":"spell"');
    const file = rechained(lines, at + 1, Buffer.from(body));
    writeFileSync(store.path, file);
    const preview = readTailPreview(store.path)!;
    // The entry of the unknown type and everything before it are left out.
    expect(ids(preview.path)).toEqual(ids(path.slice(3)));
  });

  it('gives no preview for a tail with no whole line after its first, or a header that is not one', () => {
    expect(previewOf(Buffer.from('no newline at all'), null, 's')).toBeNull();
    const store = session(2);
    writeFileSync(store.path, Buffer.concat([Buffer.from('{"kind":"other"}\n'), readFileSync(store.path)]));
    expect(readTailPreview(store.path)).toBeNull();
  });
});
