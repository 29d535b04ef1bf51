import { afterEach, describe, expect, it, vi } from 'vitest';
import { SyncLoop } from '../../src/core/sync/sync-loop';
import { syncAlertText } from '../../src/tui/status/use-sync-alert';
import { createStore, tempDir } from '../support/storage-fixtures';
import { renderScreen, stripAnsi, type Screen } from './harness';
import { append } from './session-fixture';

let screen: Screen | undefined;
const dirs: { remove(): void }[] = [];
afterEach(() => {
  screen?.unmount();
  for (const d of dirs.splice(0)) d.remove();
});

describe('the background sync in the status bar', () => {
  it('words a failure with the seconds until the retry', () => {
    expect(
      syncAlertText(
        { kind: 'failed', error: 'cannot reach PostgreSQL at postgres://x', failures: 2, retryAtMs: 9_500 },
        1_000,
      ),
    ).toBe('sync failed: cannot reach PostgreSQL at postgres://x · retry in 9s');
    expect(syncAlertText({ kind: 'ok', atMs: 1 }, 1_000)).toBeNull();
  });

  it('shows a failed sync in the status bar until a retry works', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = createStore(dir.path);
    append(store, 'user', { text: 'ship me' });
    let fail = true;
    // The loop's waits are the test's to end: the first run, then the retry after the failure.
    const due: (() => void)[] = [];
    const fireNext = async (): Promise<void> => {
      await vi.waitFor(() => expect(due).toHaveLength(1));
      due.shift()!();
    };
    const loop = new SyncLoop({
      delayMs: 10,
      backoffMs: 1500,
      run: async () => {
        if (fail) throw new Error('cannot reach PostgreSQL at postgres://tole@db:5432/team: connect ECONNREFUSED');
      },
      timers: {
        set: (fn) => {
          due.push(fn);
          return fn;
        },
        clear: (handle) => {
          due.splice(due.indexOf(handle as () => void), 1);
        },
        nowMs: () => Date.now(),
      },
    });
    screen = renderScreen({ store, sync: loop, columns: 160, rows: 30 });
    loop.poke();
    await fireNext();
    const frame = stripAnsi(await screen.waitFor(/sync failed: cannot reach PostgreSQL/));
    const status = frame.split('\n').find((l) => l.includes('sync failed'))!;
    expect(status).toMatch(
      /✗ sync failed: cannot reach PostgreSQL at postgres:\/\/tole@db:5432\/team: connect ECONNREFUSED · retry in [12]s/,
    );
    expect(status).toContain(`seq ${store.lastSeq}`);
    fail = false;
    await fireNext();
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).not.toContain('sync failed'), { timeout: 5000 });
    expect(loop.current.kind).toBe('ok');
    loop.stop();
    store.close();
  });
});
