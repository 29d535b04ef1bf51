/**
 * The open takes values from a saved index only when its MAC is the user's key's: a forged index
 * (a value changed, its CRC computed again), one written under another user's key, or one without
 * a MAC is not used. The open replays the file instead, shows the file's values, and sets the
 * index aside, saying so.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NS } from '../../../src/core/registers/namespaces';
import { nodeFileOps } from '../../../src/core/storage/file-ops';
import { indexPathOf, readIndex, writeIndex } from '../../../src/core/storage/session-index';
import { TEST_INDEX_KEY, createStore, entryCommit, openStore, tempDir } from '../../support/storage-fixtures';

const dir = tempDir('tole-vouched-index-');
afterAll(() => dir.remove());

const ASIDE = { asideMinBytes: 0 };
const OTHER_KEY = Buffer.alloc(32, 9);
let made = 0;

function indexedSession(): string {
  const sub = join(dir.path, `s${made++}`);
  mkdirSync(sub);
  const store = createStore(sub);
  let parent: string | null = null;
  for (let i = 0; i < 5; i++) {
    store.commit(entryCommit(store, parent, `entry ${i}`));
    parent = [...store.tree.all()].at(-1)!.id;
  }
  store.commit([{ kind: 'register', op: 'set', namespace: NS.session, key: 'name', value: 'honest' }]);
  store.close();
  openStore(store.path, ASIDE).close();
  expect(readIndex(nodeFileOps, store.path, statSync(store.path).size, TEST_INDEX_KEY)).not.toBeNull();
  return store.path;
}

/** The index rewritten with `from` replaced by `to` in its state, under `key` (CRC computed again). */
function forge(path: string, from: string, to: string, key: Buffer): void {
  const real = readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)!;
  const text = JSON.stringify(real.state);
  expect(text).toContain(from);
  expect(writeIndex(nodeFileOps, path, { ...real, state: JSON.parse(text.replace(from, to)) }, key)).toBe(true);
}

/** Replaces the MAC in the index's first line with `hex` (its CRC, over what follows, still holds). */
function withMac(path: string, hex: string): void {
  const bytes = readFileSync(indexPathOf(path));
  const newline = bytes.indexOf(0x0a);
  bytes.write(hex, newline - 64, 'latin1');
  writeFileSync(indexPathOf(path), bytes);
}

function nameOf(path: string, readOnly = false): { name: unknown; indexedBytes: number; aside: unknown } {
  const store = openStore(path, { ...ASIDE, readOnly });
  try {
    return {
      name: store.registers.get(NS.session, 'name'),
      indexedBytes: store.indexedBytes,
      aside: store.report.indexSetAside,
    };
  } finally {
    store.close();
  }
}

describe('an index the key does not vouch for', () => {
  it('a genuine index is used: the open takes its state and does not replay those lines', () => {
    const path = indexedSession();
    const opened = nameOf(path);
    expect(opened.name).toBe('honest');
    expect(opened.indexedBytes).toBeGreaterThan(0);
    expect(opened.aside).toBeUndefined();
  });

  it('a value forged with the CRC computed again but no key: the open shows the file value and sets the index aside', () => {
    const path = indexedSession();
    forge(path, '"honest"', '"forged"', OTHER_KEY);
    const forged = readFileSync(indexPathOf(path));
    const opened = nameOf(path);
    expect(opened.name).toBe('honest');
    expect(opened.indexedBytes).toBe(0);
    expect(opened.aside).toMatchObject({ path: indexPathOf(path), movedTo: `${indexPathOf(path)}.bad` });
    expect(String((opened.aside as { reason: string }).reason)).toContain("does not match this user's key");
    expect(readFileSync(`${indexPathOf(path)}.bad`).equals(forged)).toBe(true);
    // The replay wrote a new index under the user's key, which the next open uses.
    const again = nameOf(path);
    expect(again).toMatchObject({ name: 'honest', aside: undefined });
    expect(again.indexedBytes).toBeGreaterThan(0);
  });

  it('a genuine index written under another user key is not used', () => {
    const path = indexedSession();
    const real = readIndex(nodeFileOps, path, statSync(path).size, TEST_INDEX_KEY)!;
    expect(writeIndex(nodeFileOps, path, real, OTHER_KEY)).toBe(true);
    const opened = nameOf(path);
    expect(opened.indexedBytes).toBe(0);
    expect(opened.aside).toMatchObject({ movedTo: `${indexPathOf(path)}.bad` });
  });

  it('a MAC of zeros, of too few digits or not hex, or an index of the older version without one, is not used', () => {
    for (const mac of ['0'.repeat(64), `${'a'.repeat(62)}zz`]) {
      const path = indexedSession();
      forge(path, '"honest"', '"forged"', TEST_INDEX_KEY);
      withMac(path, mac);
      expect(nameOf(path)).toMatchObject({ name: 'honest', indexedBytes: 0 });
    }
    const path = indexedSession();
    const bytes = readFileSync(indexPathOf(path));
    const newline = bytes.indexOf(0x0a);
    // The version-3 layout: magic, CRC, newline, the same body.
    const old = Buffer.concat([
      Buffer.from(bytes.toString('latin1', 0, newline - 65).replace(' 4 ', ' 3 '), 'latin1'),
      bytes.subarray(newline),
    ]);
    writeFileSync(indexPathOf(path), old);
    const opened = nameOf(path);
    expect(opened).toMatchObject({ name: 'honest', indexedBytes: 0 });
    expect(String((opened.aside as { reason: string }).reason)).toContain('carries no MAC');
  });

  it('a read-only open does not use it and leaves it in place, saying so', () => {
    const path = indexedSession();
    forge(path, '"honest"', '"forged"', OTHER_KEY);
    const opened = nameOf(path, true);
    expect(opened).toMatchObject({ name: 'honest', indexedBytes: 0, aside: { movedTo: null } });
    expect(existsSync(indexPathOf(path))).toBe(true);
  });

  it('without a key no index is used or saved', () => {
    const path = indexedSession();
    const store = openStore(path, { ...ASIDE, indexKey: () => null });
    expect(store.indexedBytes).toBe(0);
    expect(store.registers.get(NS.session, 'name')).toBe('honest');
    store.close();
  });
});
