/**
 * The fault simulator compares a live store with a fresh replay as snapshotText, which skips the
 * copies snapshot makes: it must be the very text of the snapshot, for live entries and for replayed
 * ones whose payloads are still bytes of the file (and for those already read).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { buildSession, openStore, snapshot, snapshotText, tempDir } from '../../support/storage-fixtures';
import { ReplayedEntry } from '../../../src/core/storage/replayed-entry';

const dir = tempDir();
afterAll(() => dir.remove());

describe('snapshotText', () => {
  const built = buildSession(dir.path, { endWithArray: true });

  it('is JSON.stringify of the snapshot of a live store', () => {
    expect(snapshotText(built.store)).toBe(JSON.stringify(snapshot(built.store)));
    built.store.close();
  });

  it('is JSON.stringify of the snapshot of a replayed store, its payloads unread or read', () => {
    const replayed = openStore(built.path, { readOnly: true });
    try {
      const entries = [...replayed.tree.all()];
      // The case the clones were skipped for: entries whose payloads are still bytes of the file.
      expect(entries.filter((entry) => entry instanceof ReplayedEntry && ReplayedEntry.isUnparsed(entry)).length).toBe(
        entries.length,
      );
      const text = snapshotText(replayed);
      expect(text).toBe(JSON.stringify(snapshot(replayed)));
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(built.states.at(-1))));
    } finally {
      replayed.close();
    }
  });
});
