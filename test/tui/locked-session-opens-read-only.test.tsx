import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import { parseArgs } from '../../src/cli/args';
import { openForTui } from '../../src/cli/open-for-tui';
import type { StartedChild } from '../support/spawn-node';
import { holdingTheLock } from '../support/lock-holder';
import { KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { append } from './session-fixture';
import { tempDirForTest } from '../support/after-the-test';

let screen: Screen | undefined;
let holder: StartedChild | undefined;
afterEach(() => {
  screen?.unmount();
  holder?.child.kill('SIGKILL');
});

function madeSession(): { dir: string; id: string; path: string } {
  const dir = tempDirForTest('tole-locked-');
  const store = SessionStore.create(dir, { clock: systemClock, random: seededRandom(3), cwd: dir });
  append(store, 'user', { text: 'what holds the lock?' });
  append(store, 'assistant', { text: 'another tole does.', toolCalls: [], model: 'gpt-4.1', finishReason: 'stop' });
  store.close();
  return { dir, id: store.header.id, path: store.path };
}

/** Another tole, holding the session open for writing; its pid. */
async function holdLock(path: string): Promise<number> {
  holder = await holdingTheLock(path, 30_000);
  return holder.child.pid!;
}

describe('a session another tole holds', () => {
  it('opens read-only, with a notice naming the pid and saying nothing will be written', async () => {
    const { dir, id, path } = madeSession();
    const pid = await holdLock(path);
    const before = readFileSync(path, 'utf8');

    const { store, notices } = openForTui(parseArgs(['--resume', id]), dir, dir, seededRandom(5));
    expect(store.readOnly).toBe(true);
    expect(notices[0]).toBe(
      `locked by pid ${pid} on ${hostname()}: showing it read-only, nothing will be written; close that tole to continue it here`,
    );

    screen = renderScreen({ store, notices, columns: 120, rows: 30 });
    const frame = stripAnsi(await screen.waitFor(`locked by pid ${pid}`));
    expect(frame).toContain('showing it read-only, nothing will be written');
    expect(frame).toMatch(/· read-only ·/);
    expect(pane(frame, 'main ·')).toContain('another tole does.');

    // Browsing works; a prompt is refused and nothing reaches the file.
    await screen.type('go on');
    await screen.press(KEYS.enter);
    await screen.waitFor('open read-only: prompts cannot be sent here');
    expect(readFileSync(path, 'utf8')).toBe(before);
    store.close();
  });

  it('asked for read-only anyway (--read-only), it opens read-only without the lock notice', async () => {
    const { dir, id, path } = madeSession();
    await holdLock(path);
    const { store, notices } = openForTui(parseArgs(['--resume', id, '--read-only']), dir, dir, seededRandom(5));
    expect(store.readOnly).toBe(true);
    expect(notices).toEqual([]);
    store.close();
  });
});
