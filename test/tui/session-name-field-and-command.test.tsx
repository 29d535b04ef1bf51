/**
 * Naming the session: `R` in the tree (and `/name` without text) opens a one-line field edited
 * with the prompt's keys, Enter saves and Esc cancels; `/name TEXT` (or `/rename TEXT`) names it
 * straight away. The name is a committed record and shows at the head of the screen.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { sessionName } from '../../src/core/session/session-name';
import { SessionStore } from '../../src/core/storage/session-store';
import { KEYS, renderScreen, stripAnsi, type Screen } from './harness';
import { prepareSession } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

async function shows(text: string): Promise<void> {
  await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toContain(text));
}

/**
 * Types into the open field a key at a time, each after the one before is on screen (as a person
 * types). The text has no spaces: a trailing space is not told apart on screen.
 */
async function typeInField(text: string, start = ''): Promise<void> {
  let typed = start;
  for (const ch of text) {
    typed += ch;
    await screen!.press(ch);
    await shows(`session name: ${typed}`);
  }
}

/** The name as the session file holds it, read back by a second, read-only open (replay). */
function nameOnDisk(path: string): string | null {
  const reread = SessionStore.open(path, { clock: systemClock, random: seededRandom(3), readOnly: true });
  try {
    return sessionName(reread);
  } finally {
    reread.close();
  }
}

describe('the session name field (R in the tree)', () => {
  it('opens with the keymap suspended; Enter saves it as a record; it shows at the head; Esc cancels; empty removes it', async () => {
    const { store } = prepareSession();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.press(KEYS.tab);
    await shows('check out');
    await screen.press('R');
    await shows('session name:');
    // j, k, q and ? are keys of the tree and the screen: in the field they are letters.
    await typeInField('jq?-docs');
    await screen.press(KEYS.enter);
    await shows('session named "jq?-docs"');
    expect(stripAnsi(screen.frame())).not.toContain('session name:');
    expect(sessionName(store)).toBe('jq?-docs');
    expect(nameOnDisk(store.path)).toBe('jq?-docs');
    await shows('jq?-docs · branch-2 · 6 entries');
    expect(screen.quit).not.toHaveBeenCalled();

    // Reopened, it holds the name; Esc leaves it as it was.
    await screen.press('R');
    await shows('session name: jq?-docs');
    await typeInField('x', 'jq?-docs');
    await screen.press(KEYS.escape);
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).not.toContain('session name:'));
    expect(sessionName(store)).toBe('jq?-docs');

    // Emptied and saved: the name is removed (a delete record).
    await screen.press('R');
    await shows('session name: jq?-docs');
    for (let i = 0; i < 'jq?-docs'.length; i++) await screen.press('\x7f');
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toMatch(/session name: +a name for this session/), {
      timeout: 15_000,
    });
    await screen.press(KEYS.enter);
    await shows('the session has no name now');
    expect(sessionName(store)).toBeNull();
    expect(nameOnDisk(store.path)).toBeNull();
    await shows('┬ branch-2 · 6 entries');
  });
});

describe('/name and /rename', () => {
  it('/name TEXT names the session at once; /rename opens the field with the name in it; /name alone too', async () => {
    const { store } = prepareSession();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.type('/name  release   notes ');
    await screen.press(KEYS.enter);
    await shows('session named "release notes"');
    expect(nameOnDisk(store.path)).toBe('release notes');
    await shows('release notes · branch-2');

    await screen.type('/rename');
    await screen.press(KEYS.enter);
    await shows('session name: release notes');
    await typeInField('-v2', 'release notes');
    await screen.press(KEYS.enter);
    await shows('session named "release notes-v2"');
    expect(sessionName(store)).toBe('release notes-v2');
    // What was typed went to the field, not also into the prompt below it.
    expect(stripAnsi(screen.frame())).toMatch(/❯ +type a prompt/);

    await screen.type('/name');
    await screen.press(KEYS.enter);
    await shows('session name: release notes-v2');
    await screen.press(KEYS.ctrlC);
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).not.toContain('session name:'));
    expect(screen.quit).not.toHaveBeenCalled();
    expect(sessionName(store)).toBe('release notes-v2');
  });

  it('is refused on a read-only session, by the key and by the command', async () => {
    const { store } = prepareSession();
    const path = store.path;
    store.close();
    const readOnly = SessionStore.open(path, { clock: systemClock, random: seededRandom(5), readOnly: true });
    screen = renderScreen({ store: readOnly, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.type('/name nope');
    await screen.press(KEYS.enter);
    await shows('read-only session: its name cannot be written');
    await screen.press(KEYS.tab, 'R');
    expect(stripAnsi(screen.frame())).not.toContain('session name:');
    expect(nameOnDisk(path)).toBeNull();
    readOnly.close();
  });

  it('? and /help list /name, /new, /resume and the R key', async () => {
    const { store } = prepareSession();
    screen = renderScreen({ store, noColor: true, rows: 200 });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.press('?');
    const help = stripAnsi(await screen.waitFor('session name field'));
    expect(help).toMatch(/\/name \[text\]/);
    expect(help).toContain('/new');
    expect(help).toMatch(/\/resume \[id\]/);
    expect(help).toMatch(/R +name the session/);
  });
});
