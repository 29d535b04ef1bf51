import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEAD_KEY, NS, type LaneHead } from '../../src/core/registers/namespaces';
import { KEYS, leftColumns, pane, renderScreen, type Screen } from './harness';
import { prepareSession } from './session-fixture';
import { inFullColor } from './full-color';

let screen: Screen | undefined;
inFullColor();
afterEach(() => screen?.unmount());

const strip = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, '');

/** The tree row drawn in inverse video (the selection, with NO_COLOR on). */
function selectedRow(frame: string): string {
  const line = frame.split('\n').find((l) => l.includes('\x1b[7m'));
  return line ? strip(leftColumns(line)) : '';
}

/** Waits (frames land after a macrotask) until the selected row shows `text`. */
async function selected(text: string): Promise<void> {
  await vi.waitFor(() => expect(selectedRow(screen!.frame())).toContain(text));
}

describe('the tree keys', () => {
  it('move between siblings at a branch point and check out the other branch', async () => {
    const { store, ids } = prepareSession();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');

    await screen.press(KEYS.tab);
    await screen.waitFor('check out');
    await selected('A lock file');

    await screen.press(KEYS.up);
    await selected('try a lock file instead');
    await selected('[2/2]');

    await screen.press(KEYS.left);
    await selected('The race is between');
    await selected('[1/2]');

    // Back and forth: → returns to the newer sibling, ← again to the older.
    await screen.press(KEYS.right);
    await selected('try a lock file instead');
    await screen.press(KEYS.left);

    // Down the older branch to its leaf and check it out: the head register moves there.
    await screen.press(KEYS.down, KEYS.down, KEYS.down, KEYS.down);
    await selected('Fixed: the test');
    await screen.press(KEYS.enter);
    const frame = await screen.waitFor('main · 9 entries');
    expect(store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY)).toEqual({ lane: 'main', entryId: ids.fixed });

    // The transcript follows: the main branch, not the lock file one.
    expect(frame).toContain('Fixed: the test passes now.');
    expect(frame).toContain('+    const seq = this.state.seq');
    expect(pane(frame, 'main ·')).not.toContain('A lock file');
    expect(pane(frame, 'main ·')).not.toContain('try a lock file');
  });

  it('checks out an inner entry so that the next prompt branches from it, and g jumps back to the newest leaf', async () => {
    const { store, ids } = prepareSession();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.press(KEYS.tab, KEYS.home);
    await selected('fix the flaky test');
    await screen.press(KEYS.down, KEYS.enter);
    const frame = await screen.waitFor('next prompt branches');
    expect(store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY)?.entryId).toBe(ids.look);
    expect(frame).toContain('new branch from here');

    await screen.press('g');
    await selected('A lock file');
    await screen.press('c');
    await selected("I'll look at the test");
  });

  it('keeps the selected row visible in a tree far taller than the pane', async () => {
    const { store } = prepareSession();
    screen = renderScreen({ store, noColor: true, rows: 12 });
    await screen.waitFor('tree ·');
    await screen.press(KEYS.tab, KEYS.home);
    await selected('fix the flaky test');
    for (let i = 0; i < 10; i++) await screen.press(KEYS.down);
    await selected('A lock file');
    await screen.waitFor('11/11');
  });
});
