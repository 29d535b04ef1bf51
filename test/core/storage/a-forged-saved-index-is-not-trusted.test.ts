/**
 * A saved index whose values were changed and whose own CRC was computed again (as a forger
 * would) still names the right file and the right last CRC: only the file's own replay can tell.
 * `tole check` derives every value again from the file and compares.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSessionFile, formatCheckReport } from '../../../src/core/storage/check';
import { nodeFileOps } from '../../../src/core/storage/file-ops';
import { NS } from '../../../src/core/registers/namespaces';
import { indexPathOf, readIndex, writeIndex } from '../../../src/core/storage/session-index';
import { TEST_INDEX_KEY, createStore, entryCommit, openStore, tempDir } from '../../support/storage-fixtures';

const dir = tempDir('tole-forged-index-');
afterAll(() => dir.remove());

const ASIDE = { asideMinBytes: 0 };
let made = 0;

/** A session named `honest` with a few entries, opened once writable beside the worker so that its index is saved. */
function indexedSession(): string {
  const sub = join(dir.path, `s${made++}`);
  mkdirSync(sub);
  const store = createStore(sub);
  let parent: string | null = null;
  for (let i = 0; i < 5; i++) {
    const drafts = entryCommit(store, parent, `entry ${i}`);
    store.commit(drafts);
    parent = [...store.tree.all()].at(-1)!.id;
  }
  store.commit([{ kind: 'register', op: 'set', namespace: NS.session, key: 'name', value: 'honest' }]);
  store.close();
  openStore(store.path, ASIDE).close();
  expect(
    readIndex(nodeFileOps, store.path, statSync(store.path).size, TEST_INDEX_KEY),
    'the index was saved',
  ).not.toBeNull();
  return store.path;
}

/** Rewrites the index with `from` replaced by `to` in its state, its CRC computed again. */
function forge(path: string, from: string, to: string): void {
  const real = readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)!;
  const text = JSON.stringify(real.state);
  expect(text).toContain(from);
  expect(writeIndex(nodeFileOps, path, { ...real, state: JSON.parse(text.replace(from, to)) }, TEST_INDEX_KEY)).toBe(
    true,
  );
}

describe('tole check and the saved index', () => {
  it('says a genuine index matches the file', () => {
    const path = indexedSession();
    const report = checkSessionFile(path, undefined, () => TEST_INDEX_KEY);
    expect(report.ok).toBe(true);
    expect(report.savedIndex).toMatchObject({ kind: 'matches', path: indexPathOf(path) });
    expect(formatCheckReport(report)).toContain(`index:     ${indexPathOf(path)} matches the file`);
  });

  it('reports a register value changed in the index (CRC recomputed), naming the register and both values', () => {
    const path = indexedSession();
    const fileBefore = readFileSync(path);
    forge(path, '"honest"', '"forged"');
    const report = checkSessionFile(path, undefined, () => TEST_INDEX_KEY);
    expect(report.ok).toBe(false);
    expect(report.problem).toMatchObject({ kind: 'index', file: indexPathOf(path) });
    expect(report.problem?.message).toContain(`register ${NS.session}/name`);
    expect(report.problem?.message).toMatch(/the index says .*forged.*, the file says .*honest/);
    expect(report.problem?.message).toContain(`mv ${indexPathOf(path)} ${indexPathOf(path)}.bad`);
    expect(formatCheckReport(report)).toContain('PROBLEM (index)');
    // The check changed nothing.
    expect(readFileSync(path).equals(fileBefore)).toBe(true);
  });

  it('reports an entry changed in the index (its type, a number in its columns), not only registers', () => {
    const path = indexedSession();
    const real = readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)!;
    const numbers = Float64Array.from(real.numbers);
    // The columns are [parent, seq, timestamp, type, ...], each as long as the entries: the first entry's type.
    const typeOfFirst = 3 * real.ids.length;
    numbers[typeOfFirst] = numbers[typeOfFirst] === 0 ? 1 : 0;
    expect(writeIndex(nodeFileOps, path, { ...real, numbers }, TEST_INDEX_KEY)).toBe(true);
    const report = checkSessionFile(path, undefined, () => TEST_INDEX_KEY);
    expect(report.ok).toBe(false);
    expect(report.problem?.message).toMatch(/entry e_\d+: the index says/);
  });
});
