import { describe, expect, it, vi } from 'vitest';
import { AppendBatch, checkout } from '../../src/core/session/cursor';
import type { SessionStore } from '../../src/core/storage/session-store';
import { buildTreeRows } from '../../src/tui/tree-rows';
import { LineCache, scrollTranscript, transcriptWindow } from '../../src/tui/transcript-window';
import { KEYS, pane, renderScreen } from './harness';
import { emptyStore, fastOps } from './session-fixture';

const ENTRIES = 100_000;

/** A 100,000-entry session: one long chain with a side branch every 5,000 entries. */
function hugeSession(): { store: SessionStore; branchPoints: string[] } {
  const store = emptyStore(fastOps);
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
  const { store } = hugeSession();

  it('flattens the tree quickly', () => {
    const started = performance.now();
    const rows = buildTreeRows(store.tree);
    const elapsedMs = performance.now() - started;
    console.log(`100k entries: tree rows built in ${elapsedMs.toFixed(0)} ms`);
    expect(rows.rows).toHaveLength(store.tree.size);
    expect(elapsedMs).toBeLessThan(1500);
  });

  it('lays out only the transcript lines on screen, and scrolls by laying out only what it passes', () => {
    const path = store.tree.pathTo(store.registers.get<{ entryId: string }>('lane.head', 'head')!.entryId);
    const cache = new LineCache();
    const started = performance.now();
    let window = transcriptWindow(path, [], cache, 80, 30, { kind: 'follow' });
    for (let i = 0; i < 50; i++) {
      const anchor = scrollTranscript(window, -28, path, [], cache, 80, 30);
      window = transcriptWindow(path, [], cache, 80, 30, anchor);
    }
    const elapsedMs = performance.now() - started;
    expect(window.lines.length).toBe(30);
    expect(window.following).toBe(false);
    expect(elapsedMs).toBeLessThan(500);
  });

  it('opens, moves through the tree and checks out a branch without stalling', async () => {
    const startedMs = performance.now();
    const screen = renderScreen({ store, columns: 160, rows: 48 });
    try {
      await screen.waitFor('branches');
      const openMs = performance.now() - startedMs;
      expect(openMs).toBeLessThan(5000);

      await screen.press(KEYS.tab);
      const keysStarted = performance.now();
      for (let i = 0; i < 20; i++) await screen.press(KEYS.up);
      await screen.press(KEYS.home);
      await vi.waitFor(() => expect(pane(screen.frame(), 'tree')).toContain('prompt number 0:'));
      const keysMs = performance.now() - keysStarted;
      expect(keysMs / 21).toBeLessThan(150);

      // End selects the newest leaf (the last side branch); Enter checks it out.
      await screen.press(KEYS.end);
      const checkoutStarted = performance.now();
      await screen.press(KEYS.enter);
      await vi.waitFor(() => expect(pane(screen.frame(), 'branch-')).toContain('side answer'));
      const checkoutMs = performance.now() - checkoutStarted;
      expect(checkoutMs).toBeLessThan(2000);
      console.log(
        `100k entries: open ${openMs.toFixed(0)} ms, tree key ${(keysMs / 21).toFixed(1)} ms, checkout ${checkoutMs.toFixed(0)} ms`,
      );
    } finally {
      screen.unmount();
    }
  });
});
