/**
 * The tree's one-line fields (find `/`, label `L`, session name `R` or `/name`) are edited with
 * the prompt's keys: Ctrl-A/E/U/K/W, Alt-B/F, Home/End, ←→, Ctrl-D, Backspace act where the
 * cursor is, a chord nothing binds (Ctrl-T, Ctrl-Y, Alt-Z) changes nothing (it once typed its
 * letter), the cursor is drawn where it is and a long value scrolls to keep it in sight, and a
 * bracketed paste goes in whole at the cursor, on one line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { labelOf } from '../../src/core/session/labels';
import { sessionName } from '../../src/core/session/session-name';
import { runTui } from '../../src/tui/run-tui';
import { eventually, FakeStdin, FakeStdout, KEYS, renderScreen, tuiOptions, type Screen } from './harness';
import { prepareSession } from './session-fixture';
import { inFullColor } from './full-color';

let screen: Screen | undefined;
inFullColor();
afterEach(() => screen?.unmount());

const CHORD = {
  ctrlA: '\x01',
  ctrlD: '\x04',
  ctrlE: '\x05',
  ctrlK: '\x0b',
  ctrlT: '\x14',
  ctrlU: '\x15',
  ctrlW: '\x17',
  ctrlY: '\x19',
  altB: '\x1bb',
  altF: '\x1bf',
  altZ: '\x1bz',
  backspace: '\x7f',
} as const;

/**
 * The field's row from its prompt on, the cell in inverse video (the cursor) between ⟦ ⟧ and
 * every other style taken out: `label e1: ab⟦c⟧d`; runs of blanks are one.
 */
function fieldRow(frame: string, prompt: string): string {
  const row = frame
    .split('\n')
    .map((line) =>
      line
        .replace(/\x1b\[7m/g, '⟦')
        .replace(/\x1b\[27m/g, '⟧')
        .replace(/\x1b\[[0-9;]*m/g, ''),
    )
    .find((line) => line.includes(prompt));
  // The count stands at the row's right end: the run of blanks before it is one.
  return row === undefined ? '' : row.slice(row.indexOf(prompt)).trimEnd().replace(/ {2,}/g, ' ');
}

/** Presses a key and waits until the field shows `expected` (cursor marks and all). */
async function pressShows(prompt: string, key: string, expected: string): Promise<void> {
  await screen!.press(key);
  await eventually(() => expect(fieldRow(screen!.frame(), prompt)).toBe(`${prompt}${expected}`));
}

describe("the tree's fields edit with the prompt's keys", () => {
  it('Ctrl-A/E/U/K/W, Alt-B/F, Home/End, ←→, Ctrl-D act at the cursor; unbound chords type nothing; the label saved is the edited text', async () => {
    const { store, ids } = prepareSession();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.press(KEYS.tab, KEYS.home);
    await eventually(() => expect(screen!.frame()).toContain('check out'));
    const prompt = `label ${ids.prompt}: `;
    await screen.press('L');
    await eventually(() => expect(fieldRow(screen!.frame(), prompt)).toContain(prompt));

    await pressShows(prompt, 'alpha beta gamma', 'alpha beta gamma⟦ ⟧');
    await pressShows(prompt, CHORD.ctrlA, '⟦a⟧lpha beta gamma');
    await pressShows(prompt, CHORD.altF, 'alpha⟦ ⟧beta gamma');
    await pressShows(prompt, CHORD.ctrlE, 'alpha beta gamma⟦ ⟧');
    await pressShows(prompt, CHORD.altB, 'alpha beta ⟦g⟧amma');
    await pressShows(prompt, CHORD.ctrlK, 'alpha beta ⟦ ⟧');
    await pressShows(prompt, CHORD.ctrlW, 'alpha ⟦ ⟧');
    // Chords nothing binds change nothing: the next letter lands right after "alpha ".
    await screen.press(CHORD.ctrlT, CHORD.ctrlY, CHORD.altZ);
    await pressShows(prompt, 'x', 'alpha x⟦ ⟧');
    await pressShows(prompt, KEYS.home, '⟦a⟧lpha x');
    await pressShows(prompt, CHORD.ctrlD, '⟦l⟧pha x');
    await pressShows(prompt, KEYS.right, 'l⟦p⟧ha x');
    await pressShows(prompt, CHORD.ctrlU, '⟦p⟧ha x');
    await pressShows(prompt, KEYS.end, 'pha x⟦ ⟧');
    await pressShows(prompt, KEYS.left, 'pha ⟦x⟧');
    await pressShows(prompt, CHORD.backspace, 'pha⟦x⟧');
    await pressShows(prompt, 'o', 'phao⟦x⟧');
    await screen.press(KEYS.enter);
    await screen.waitFor(`${ids.prompt} labelled "phaox"`);
    expect(labelOf(store, ids.prompt)).toBe('phaox');
  });

  it("find: an edit in the middle searches again, the count and the selection follow; the cursor's move alone does not", async () => {
    const { store } = prepareSession();
    screen = renderScreen({ store, noColor: true });
    await screen.waitFor('branch-2 · 6 entries');
    await screen.press(KEYS.tab, '/');
    const prompt = 'find: ';
    await eventually(() => expect(fieldRow(screen!.frame(), prompt)).toContain(prompt));
    await pressShows(prompt, 'jsnl', 'jsnl⟦ ⟧ no match');
    await pressShows(prompt, KEYS.left, 'jsn⟦l⟧ no match');
    await pressShows(prompt, KEYS.left, 'js⟦n⟧l no match');
    await pressShows(prompt, 'o', 'jso⟦n⟧l 2 found');
    const selected = (): string =>
      screen!
        .frame()
        .split('\n')
        .find((l) => l.includes('\x1b[7m') && !l.includes(prompt)) ?? '';
    await eventually(() => expect(selected()).toContain('read_file src/storage/json'));
    // ↓ moves to the next match; then moving the cursor leaves the selection where it is.
    await screen.press(KEYS.down);
    await eventually(() => expect(selected()).toContain('edit_file src/storage/json'));
    await pressShows(prompt, CHORD.ctrlA, '⟦j⟧sonl 2 found');
    expect(selected()).toContain('edit_file src/storage/json');
    await pressShows(prompt, CHORD.ctrlK, '⟦t⟧ext in a prompt, an answer, a tool, a label');
  });

  it('a value longer than the field scrolls to keep the cursor in sight, with … where text is hidden', async () => {
    const { store } = prepareSession();
    screen = renderScreen({ store, noColor: true, columns: 40, rows: 24 });
    await screen.press(KEYS.tab, '/');
    const prompt = 'find: ';
    await eventually(() => expect(fieldRow(screen!.frame(), prompt)).toContain(prompt));
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ';
    await screen.press(text);
    // 40 columns: "find: " (6), the count "no match" (8) and its margin (1) leave 25 cells.
    await eventually(() =>
      expect(fieldRow(screen!.frame(), prompt)).toBe(`${prompt}…xyz0123456789ABCDEFGHIJ⟦ ⟧ no match`),
    );
    await pressShows(prompt, KEYS.home, '⟦a⟧bcdefghijklmnopqrstuvwx… no match');
    // The window stands still while the cursor moves inside it, and moves only as far as the cursor needs.
    await screen.press(KEYS.right, KEYS.right);
    await pressShows(prompt, KEYS.right, 'abc⟦d⟧efghijklmnopqrstuvwx… no match');
    await pressShows(prompt, KEYS.end, '…xyz0123456789ABCDEFGHIJ⟦ ⟧ no match');
    await screen.press(KEYS.left);
    await pressShows(prompt, KEYS.left, '…xyz0123456789ABCDEFGH⟦I⟧J no match');
  });
});

describe('a paste into a field', () => {
  it('goes in whole at the cursor, its newlines as spaces, and is saved as shown (the real terminal path)', async () => {
    const { store } = prepareSession();
    const stdout = new FakeStdout(100, 30);
    stdout.isTTY = true;
    const stdin = new FakeStdin();
    const exit = runTui(tuiOptions(stdout, stdin, { store }));
    const since = (from: number): string => stdout.frames.slice(from).join('');
    try {
      let from = stdout.frames.length;
      stdin.write('/name\r');
      await eventually(() => expect(since(from)).toContain('session name'));
      from = stdout.frames.length;
      stdin.write(`ab${KEYS.left}\x1b[200~one\r\ntwo\nthree\x1b[201~`);
      await eventually(() => expect(since(from)).toContain('three'));
      stdin.write(KEYS.enter);
      await eventually(() => expect(sessionName(store)).toBe('aone two threeb'));
    } finally {
      stdin.write(KEYS.ctrlC);
      await exit;
    }
  });
});
