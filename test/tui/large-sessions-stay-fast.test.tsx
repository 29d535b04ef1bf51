import { afterAll, describe, expect, it, vi } from 'vitest';
import { AppendBatch, checkout } from '../../src/core/session/cursor';
import type { SessionStore } from '../../src/core/storage/session-store';
import { TreeRowIndex } from '../../src/tui/tree/tree-rows';
import { LineCache, scrollTranscript, transcriptWindow } from '../../src/tui/transcript/transcript-window';
import { KEYS, pane, renderScreen } from './harness';
import { tempDir } from '../support/storage-fixtures';
import { fastOps, storeIn } from './session-fixture';

const ENTRIES = 100_000;

/** A 100,000-entry session: one long chain with a side branch every 5,000 entries. */
function hugeSession(dir: string): { store: SessionStore; branchPoints: string[] } {
  const store = storeIn(dir, fastOps);
  const branchPoints: string[] = [];
  for (let written = 0; written < ENTRIES - 40; written += 1000) {
    const batch = new AppendBatch(store);
    for (let i = 0; i < 1000; i++) {
      const n = written + i;
      if (n % 2 === 0) batch.entry('user', { text: `prompt number ${n}: please look at file_${n}.ts` });
      else
        batch.entry('assistant', {
          text: `answer ${n}\n\n- one\n- two\n\n\`code ${n}\``,
          toolCalls: [],
          model: 'gpt-4.1',
          finishReason: 'stop',
        });
    }
    store.commit(batch.build());
    if (written % 5000 === 0) branchPoints.push(batch.lastId!);
  }
  const leaf = store.registers.get<{ entryId: string }>('lane.head', 'head')!.entryId;
  for (const point of branchPoints.slice(0, 20)) {
    checkout(store, point);
    const batch = new AppendBatch(store);
    batch.entry('user', { text: `side question at ${point}` });
    batch.entry('assistant', { text: 'side answer', toolCalls: [], model: 'gpt-4.1', finishReason: 'stop' });
    store.commit(batch.build());
  }
  checkout(store, leaf);
  return { store, branchPoints };
}

describe('a 100,000-entry session', () => {
  const dir = tempDir('tole-tui-huge-');
  const { store } = hugeSession(dir.path);
  afterAll(() => {
    store.close();
    dir.remove();
  });

  // Correctness only: how fast a 100k-entry session opens and answers a tree key is measured by
  // `npm run bench` (bench/startup.ts), never asserted here, where a loaded machine would make a
  // speed figure fail a correct build.
  it('flattens the tree: one row per entry', () => {
    const rows = new TreeRowIndex(store.tree).snapshot();
    expect(rows.rows).toHaveLength(store.tree.size);
    expect(new Set(rows.rows.map((row) => row.id)).size).toBe(store.tree.size);
    const ids = new Set([...store.tree.all()].map((entry) => entry.id));
    expect(rows.rows.every((row) => ids.has(row.id))).toBe(true);
    const last = rows.rows[rows.rows.length - 1]!;
    expect(rows.indexOf.get(last.id)).toBe(rows.rows.length - 1);
  });

  it('lays out only the transcript lines on screen, and scrolls by laying out only what it passes', () => {
    const path = store.tree.pathTo(store.registers.get<{ entryId: string }>('lane.head', 'head')!.entryId);
    const laidOut = new Set<string>();
    class CountingCache extends LineCache {
      override get(entry: Parameters<LineCache['get']>[0], width: number) {
        laidOut.add(entry.id);
        return super.get(entry, width);
      }
    }
    const cache = new CountingCache();
    let window = transcriptWindow(path, [], cache, 80, 30, { kind: 'follow' });
    expect(laidOut.size).toBeLessThan(30);
    for (let i = 0; i < 50; i++) {
      const anchor = scrollTranscript(window, -28, path, [], cache, 80, 30);
      window = transcriptWindow(path, [], cache, 80, 30, anchor);
    }
    expect(window.lines.length).toBe(30);
    expect(window.following).toBe(false);
    // 50 pages of 28 lines pass at most 1,400 entries (each is at least one line), a few more at
    // the edges: never the 100,000 of the path.
    expect(path.length).toBeGreaterThan(99_000);
    expect(laidOut.size).toBeLessThan(1_500);
    expect(window.lines.map((line) => line.map((part) => part.text).join('')).join('\n')).not.toContain(
      `answer ${ENTRIES - 41}`,
    );
  });

  it('opens, moves through the tree and checks out a branch', async () => {
    // Waits are for what the screen shows, with room for a loaded machine (a frame of this session
    // can take seconds there); they never bound how fast it is.
    const WAIT = { timeout: 20_000, interval: 20 };
    const screen = renderScreen({ store, columns: 160, rows: 48 });
    try {
      await screen.waitFor('branches', WAIT.timeout);

      await screen.press(KEYS.tab);
      for (let i = 0; i < 20; i++) await screen.press(KEYS.up);
      await screen.press(KEYS.home);
      await vi.waitFor(() => expect(pane(screen.frame(), 'tree')).toContain('prompt number 0:'), WAIT);

      // End selects the newest leaf (the last side branch); Enter checks it out.
      await screen.press(KEYS.end);
      await screen.press(KEYS.enter);
      await vi.waitFor(() => expect(pane(screen.frame(), 'branch-')).toContain('side answer'), WAIT);
    } finally {
      screen.unmount();
    }
  }, 60_000);
});
