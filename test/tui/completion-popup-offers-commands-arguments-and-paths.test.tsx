import { afterEach, describe, expect, it } from 'vitest';
import { PathIndex, type WorkspacePathSource } from '../../src/tui/prompt/workspace-paths';
import { emptyStore } from './session-fixture';
import { eventually, hangingAgent, KEYS, renderScreen, stripAnsi, type Screen } from './harness';

let screen: Screen | null = null;
afterEach(() => {
  screen?.unmount();
  screen = null;
});

/** Paths as an index answers them, with the refreshes asked for counted. */
function paths(files: readonly string[]): WorkspacePathSource & { refreshes: number } {
  const index = PathIndex.of(files);
  return {
    refreshes: 0,
    search: (typed, limit) => index.search(typed, limit),
    searchNow: (typed, limit) => index.search(typed, limit),
    refresh() {
      this.refreshes++;
    },
    subscribe: () => () => {},
  };
}

/**
 * Paths as a big workspace's index answers them: `search` gives the answer of the last query that
 * landed (the test lands one with `land`), `searchNow` the typed query's own answer.
 */
function slowPaths(files: readonly string[]): WorkspacePathSource & { land(): void } {
  const index = PathIndex.of(files);
  const listeners = new Set<() => void>();
  let landed = '';
  let asked = '';
  return {
    search(typed, limit) {
      asked = typed;
      return landed === '' ? [] : index.search(landed, limit);
    },
    searchNow(typed, limit) {
      landed = typed;
      return index.search(typed, limit);
    },
    land() {
      landed = asked;
      for (const listener of listeners) listener();
    },
    refresh() {},
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Waits until the frame, colours taken out, shows `text`; returns it so. */
async function shows(text: string | RegExp): Promise<string> {
  return eventually(() => {
    const frame = stripAnsi(screen!.frame());
    if (typeof text === 'string' ? !frame.includes(text) : !text.test(frame))
      throw new Error(`screen does not show ${String(text)}:\n${frame}`);
    return frame;
  });
}

const promptRow = (frame: string): string =>
  stripAnsi(frame)
    .split('\n')
    .find((line) => line.startsWith('❯') || line.includes('❯ '))!;

describe('the completion popup', () => {
  it('lists the slash commands a start matches, ↓ selects, Tab inserts, and typing filters live', async () => {
    screen = renderScreen({ store: emptyStore(), columns: 100, rows: 30 });
    await screen.type('/c');
    let frame = await shows('/connect');
    expect(frame).toContain('▸ /cost');
    expect(frame).toContain('  /copy');
    await screen.press(KEYS.down);
    frame = await shows('▸ /copy');
    await screen.type('op');
    frame = await shows(/▸ \/copy\s/);
    expect(frame).not.toContain('/cost ');
    expect(frame).not.toContain('/connect ');
    await screen.press(KEYS.tab);
    await shows(/❯ \/copy(?!\S)/);
    expect(stripAnsi(screen.frame())).not.toContain('▸');
  });

  it('Esc closes it and stops nothing else; the next key typed opens it again', async () => {
    const agent = hangingAgent();
    screen = renderScreen({ store: emptyStore(), agent, columns: 100, rows: 30 });
    await screen.type('/qu');
    await shows('▸ /queue');
    await shows('  /quit');
    await screen.press(KEYS.escape);
    await eventually(() => expect(stripAnsi(screen!.frame())).not.toContain('▸ /queue'));
    expect(promptRow(screen.frame())).toMatch(/❯ \/qu\s*$/);
    expect(stripAnsi(screen.frame())).not.toContain('▸ /quit');
    expect(screen.quit).not.toHaveBeenCalled();
    await screen.type('i');
    await shows('▸ /quit');
  });

  it('⏎ inserts the selected match, and sends a command already typed whole', async () => {
    screen = renderScreen({ store: emptyStore(), columns: 100, rows: 30 });
    await screen.type('/he');
    await shows('▸ /help');
    await screen.press(KEYS.enter);
    await shows(/❯ \/help(?!\S)/);
    await screen.press('\x7f');
    await shows('▸ /help');
    await screen.press(KEYS.enter);
    // /help ran: the keys overlay is open.
    await shows('commands (type them in the prompt)');
  });

  it('completes arguments: /agent offers the profile names, Ctrl-N and Ctrl-P move', async () => {
    const argumentsOf = (command: string) =>
      command === 'agent'
        ? [
            { insert: 'reviewer', label: 'reviewer', detail: 'user profile' },
            { insert: 'writer', label: 'writer', detail: 'project profile' },
          ]
        : null;
    screen = renderScreen({ store: emptyStore(), argumentsOf, columns: 100, rows: 30 });
    await screen.type('/agent ');
    await shows('▸ reviewer');
    await screen.press('\x0e');
    await shows('▸ writer');
    await screen.press('\x10');
    await shows('▸ reviewer');
    await screen.type('wr');
    await shows('▸ writer');
    await screen.press(KEYS.tab);
    await shows(/❯ \/agent writer/);
  });

  it('after @ offers workspace paths fuzzily, directories with their /, and inserts one as a mention', async () => {
    const source = paths(['src/tui/App.tsx', 'src/cli/main.ts', 'README.md', 'docs/my notes.md']);
    screen = renderScreen({ store: emptyStore(), paths: source, columns: 100, rows: 30 });
    await screen.type('look at @stapp');
    await shows('▸ src/tui/App.tsx');
    expect(source.refreshes).toBeGreaterThan(0);
    await screen.press(KEYS.tab);
    await shows(/❯ look at @src\/tui\/App\.tsx(?!\S)/);
    await screen.type('and @not');
    await shows('▸ docs/my notes.md');
    await screen.press(KEYS.tab);
    await shows('@"docs/my notes.md"');
    await screen.type(' and @sr');
    await shows('src/');
    expect(promptRow(screen.frame())).toContain('and @sr');
  });

  it("Tab and Enter act on the answer to what is typed, not on an older query's paths still shown", async () => {
    const source = slowPaths(['src/old-name.ts', 'src/new-name.ts', 'docs/guide.md']);
    screen = renderScreen({ store: emptyStore(), paths: source, columns: 100, rows: 30 });
    await screen.type('see @old');
    source.land();
    await shows('▸ src/old-name.ts');
    for (let i = 0; i < 3; i++) await screen.press('\x7f');
    await screen.type('new');
    await shows(/❯ see @new/);
    // The popup still shows the older query's answer; Tab inserts the newer one's best.
    expect(stripAnsi(screen.frame())).toContain('▸ src/old-name.ts');
    await screen.press(KEYS.tab);
    await shows(/❯ see @src\/new-name\.ts(?!\S)/);
    expect(promptRow(screen.frame())).not.toContain('old-name');
    // A query that matches nothing: Enter does what it does without a popup (the prompt is sent).
    await screen.type('and @gui');
    source.land();
    await shows('▸ docs/guide.md');
    await screen.type('zzz');
    await shows(/❯ see @src\/new-name\.ts and @guizzz/);
    expect(stripAnsi(screen.frame())).toContain('▸ docs/guide.md');
    await screen.press(KEYS.enter);
    const frame = await eventually(() => {
      const row = promptRow(screen!.frame());
      if (row.includes('@guizzz')) throw new Error(`the prompt still holds the text: ${row}`);
      return stripAnsi(screen!.frame());
    });
    expect(frame).not.toContain('@docs/guide.md');
  });

  it('/theme, the one command that takes a path, offers the theme names and the workspace .json files, inserted plain', async () => {
    const source = paths(['themes/solar.json', 'themes/notes.md', 'package.json', 'src/dark-mode.ts']);
    const argumentsOf = (command: string) =>
      command === 'theme' ? [{ insert: 'dark', label: 'dark', detail: 'built-in theme' }] : null;
    screen = renderScreen({ store: emptyStore(), paths: source, argumentsOf, columns: 100, rows: 30 });
    await screen.type('/theme ');
    let frame = await shows('▸ dark');
    await screen.type('sol');
    frame = await shows('▸ themes/solar.json');
    expect(source.refreshes).toBeGreaterThan(0);
    expect(frame).not.toContain('notes.md');
    await screen.press(KEYS.tab);
    await shows(/❯ \/theme themes\/solar\.json(?!\S)/);
    expect(promptRow(screen.frame())).not.toContain('@');
    for (let i = 0; i < 'themes/solar.json'.length; i++) await screen.press('\x7f');
    await screen.type('dark');
    frame = await shows('▸ dark');
    // A .ts file is no theme, whatever its name.
    expect(frame).not.toContain('dark-mode.ts');
  });

  it('does not open for an email address, and fits a 60x20 screen with the prompt and status bar in view', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `src/file-${i}.ts`);
    screen = renderScreen({ store: emptyStore(), paths: paths(many), columns: 60, rows: 20 });
    await screen.type('mail me@src');
    await shows(/❯ mail me@src/);
    expect(stripAnsi(screen.frame())).not.toContain('▸');
    await screen.type(' @file');
    const frame = await shows('▸ src/file-');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(20);
    expect(lines.filter((line) => line.includes('src/file-')).length).toBe(6);
    expect(lines.at(-1)).toContain('Idle');
    expect(frame).toMatch(/❯ mail me@src @file/);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(60);
  });
});
