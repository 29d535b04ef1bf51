/**
 * A read-only session (a file another tole holds, --read-only) writes nothing: the status bar
 * offers none of the keys that would write (send, check out, restore files, retry, edit, label,
 * name session), only those that browse. The same session open for writing offers them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, renderScreen, stripAnsi, type Screen } from './harness';
import { prepareSession } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

/** The status bar: the screen's last non-empty row. */
function statusBar(frame: string): string {
  const rows = stripAnsi(frame)
    .split('\n')
    .filter((row) => row.trim() !== '');
  return rows[rows.length - 1] ?? '';
}

describe('the status bar of a read-only session', () => {
  it('offers no key that would write, in the prompt and in the tree', async () => {
    const { store } = prepareSession();
    screen = renderScreen({ store, noColor: true, readOnly: true, columns: 200 });
    await screen.waitFor('branch-2 · 6 entries');
    const prompt = statusBar(screen.frame());
    expect(prompt).toContain('panes');
    expect(prompt).not.toContain('send');
    await screen.press(KEYS.tab);
    await screen.waitFor('entries');
    const tree = statusBar(await screen.waitFor('find'));
    expect(tree).toContain('find');
    for (const hint of ['check out', 'restore files', 'retry', 'edit', 'label', 'name session'])
      expect(tree, hint).not.toContain(hint);
  });

  it('offers them when the session can be written', async () => {
    const { store } = prepareSession();
    screen = renderScreen({ store, noColor: true, columns: 200 });
    await screen.waitFor('branch-2 · 6 entries');
    expect(statusBar(screen.frame())).toContain('send');
    await screen.press(KEYS.tab);
    const tree = statusBar(await screen.waitFor('check out'));
    expect(tree).toContain('retry');
  });
});
