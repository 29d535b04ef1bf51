import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEAD_KEY, NS, type LaneHead } from '../../src/core/registers/namespaces';
import { labelOf } from '../../src/core/session/labels';
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

async function selected(text: string): Promise<void> {
  await vi.waitFor(() => expect(selectedRow(screen!.frame())).toContain(text));
}

/**
 * Types into an open field a key at a time, as a person does, each after the last is on screen, so
 * that each frame the test reads follows one key (a paste, which arrives as one chunk, is another test's).
 */
async function typeInField(prompt: string, text: string, start = ''): Promise<void> {
  let typed = start;
  await shows(prompt);
  for (const ch of text) {
    typed += ch;
    await screen!.press(ch);
    await shows(`${prompt}${typed}`);
  }
}

/** Waits until the screen, colours and styles stripped, shows `text`. */
async function shows(text: string): Promise<void> {
  await vi.waitFor(() => expect(strip(screen!.frame())).toContain(text));
}

/** Tree rows drawn underlined: the search's matches (underline stays without colour). */
function markedRows(frame: string): string[] {
  return frame
    .split('\n')
    .filter((l) => leftColumns(l).includes('\x1b[4m'))
    .map((l) => strip(leftColumns(l)).trim());
}

describe('find in the tree (/)', () => {
  it('marks the matches as you type, with the keymap suspended; ↑↓ and n/N move between them; Esc closes; Enter checks out', async () => {
    const { store, ids } = prepareSession();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.press(KEYS.tab);
    await selected('A lock file');

    await screen.press('/');
    await screen.waitFor('find:');
    // j and l are tree keys (down, next branch): in the field they are letters of the query.
    await typeInField('find: ', 'jsonl');
    await shows('find: jsonl');
    await screen.waitFor('2 found');
    await vi.waitFor(() => expect(markedRows(screen!.frame())).toHaveLength(2));
    expect(markedRows(screen.frame()).every((row) => row.includes('src/storage/json'))).toBe(true);
    // The selection went to the first match after it (wrapping from the last row to the top).
    await selected('read_file src/storage/json');
    expect(store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY)?.entryId).toBe(ids.lockAnswer);

    await screen.press(KEYS.down);
    await selected('edit_file src/storage/json');
    await screen.press(KEYS.escape);
    await vi.waitFor(() => expect(screen!.frame()).not.toContain('find:'));
    // Closed: the marks stay, and n/N (tree keys again) go round them.
    expect(markedRows(screen.frame())).toHaveLength(2);
    await screen.press('n');
    await selected('read_file src/storage/json');
    await screen.press('N');
    await selected('edit_file src/storage/json');

    // A search with no match says so, and Enter checks out nothing.
    await screen.press('/');
    await typeInField('find: ', 'zebra');
    await screen.waitFor('no match');
    await screen.press(KEYS.enter);
    await screen.waitFor('no entry matches "zebra"');
    expect(store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY)?.entryId).toBe(ids.lockAnswer);

    // Enter checks out the match.
    await screen.press('/');
    await typeInField('find: ', 'FLAKY');
    await selected('fix the flaky test');
    await screen.press(KEYS.enter);
    await screen.waitFor('next prompt starts a new branch');
    expect(store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY)?.entryId).toBe(ids.prompt);
  });

  it('finds a label', async () => {
    const { store, ids } = prepareSession();
    store.commit([{ kind: 'register', op: 'set', namespace: NS.label, key: ids.race, value: 'the CAS idea' }]);
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('⚑ the CAS idea');
    await screen.press(KEYS.tab, '/');
    await typeInField('find: ', 'cas idea');
    await screen.waitFor('1 found');
    await selected('⚑ the CAS idea');
  });
});

describe('the label field (L)', () => {
  it('labels the selected entry on Enter, as /label does, and Esc leaves it as it was', async () => {
    const { store, ids } = prepareSession();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.press(KEYS.tab, KEYS.home);
    await selected('fix the flaky test');

    await screen.press('L');
    await screen.waitFor(`label ${ids.prompt}:`);
    // ? and q are keys elsewhere; in the field they are text.
    await typeInField(`label ${ids.prompt}: `, 'start? q');
    await screen.press(KEYS.enter);
    await screen.waitFor(`${ids.prompt} labelled "start? q"`);
    expect(labelOf(store, ids.prompt)).toBe('start? q');
    expect(pane(screen.frame(), 'tree')).toContain('⚑ start? q');

    // The field opens on the label there is; Esc cancels an edit.
    await screen.press('L');
    await shows(`label ${ids.prompt}: start? q`);
    await typeInField(`label ${ids.prompt}: `, 'xyz', 'start? q');
    await screen.press(KEYS.escape);
    await vi.waitFor(() => expect(screen!.frame()).not.toContain(`label ${ids.prompt}:`));
    expect(labelOf(store, ids.prompt)).toBe('start? q');

    // Emptied and saved: the label is removed.
    await screen.press('L');
    await shows(`label ${ids.prompt}: start? q`);
    await screen.press(...Array.from({ length: 8 }, () => '\x7f'), KEYS.enter);
    await screen.waitFor(`label removed from ${ids.prompt}`);
    expect(labelOf(store, ids.prompt)).toBeUndefined();
  });

  it('is refused in a read-only session', async () => {
    const { store } = prepareSession();
    screen = renderScreen({ store, noColor: true, readOnly: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.press(KEYS.tab, 'L');
    await screen.waitFor('read-only session: labels cannot be written');
    expect(screen.frame()).not.toContain('label e');
  });
});

describe('the branch tip key (t)', () => {
  it('jumps from a branch point to the newest entry of that branch, listed in ?', async () => {
    const { store, ids } = prepareSession();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.press(KEYS.tab);
    await selected('A lock file');
    await screen.press(KEYS.up, KEYS.left);
    await selected('The race is between');
    await screen.press('t');
    await selected('Fixed: the test passes now.');
    await screen.press(KEYS.enter);
    await screen.waitFor('next prompt continues this branch');
    expect(store.registers.get<LaneHead>(NS.laneHead, HEAD_KEY)?.entryId).toBe(ids.fixed);

    await screen.press('?');
    const help = await screen.waitFor('tip of the entry');
    expect(help).toContain('find entries by text');
    expect(help).toContain('label the entry');
  });
});
