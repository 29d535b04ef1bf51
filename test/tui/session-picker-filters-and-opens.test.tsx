// Loaded before Ink, as tole's own entry points do, so that Ink draws frames when CI is set.
import '../../src/tui/frame/ci-env-hide';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'ink';
import { seededRandom } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import { sessionsForListing } from '../../src/cli/sessions-command';
import { applyKeymapOverrides } from '../../src/tui/input/keymap-overrides';
import type { PickerSession } from '../../src/tui/picker/picker-rows';
import { runPicker } from '../../src/tui/run-picker';
import { SessionPicker } from '../../src/tui/picker/SessionPicker';
import { loadTheme } from '../../src/tui/style/theme';
import { ThemeContext, themeView } from '../../src/tui/style/theme-context';
import { eventually, FakeStdin, FakeStdout, KEYS, stripAnsi } from './harness';
import { append, fixedClock } from './session-fixture';
import { shownText } from './xterm-screen';
import { tempDirForTest } from '../support/after-the-test';

const HOUR_MS = 3_600_000;
const NOW_MS = 1_764_460_000_000 + 100 * HOUR_MS;

/** Real session files: two in the project (one with a branch), one in another directory. */
function sessions(): { dir: string; project: string; listed: PickerSession[] } {
  const dir = tempDirForTest('tole-picker-');
  const project = join(dir, 'project');
  mkdirSync(project);
  const make = (cwd: string, startMs: number, prompts: string[]): void => {
    const store = SessionStore.create(dir, { clock: fixedClock(startMs), random: seededRandom(startMs), cwd });
    for (const text of prompts) {
      append(store, 'user', { text });
      append(store, 'assistant', { text: `on it: ${text}`, toolCalls: [], model: 'gpt-4.1', finishReason: 'stop' });
    }
    store.close();
  };
  make(project, NOW_MS - 50 * HOUR_MS, ['fix the flaky test in storage', 'and the other one']);
  make('/elsewhere/api', NOW_MS - 3 * HOUR_MS, ['add rate limiting to the api']);
  make(project, NOW_MS - 20.5 * 60_000, ['write the release notes']);
  return { dir, project, listed: sessionsForListing(dir, project, true) };
}

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

function renderPicker(listed: readonly PickerSession[], cwd: string, keymap = applyKeymapOverrides({})) {
  const stdout = new FakeStdout(110, 20);
  const stdin = new FakeStdin();
  const chosen = vi.fn();
  const quit = vi.fn();
  const instance = render(
    <ThemeContext.Provider value={themeView(loadTheme('dark'), true)}>
      <SessionPicker
        sessions={listed}
        cwd={cwd}
        home="/home/nobody"
        nowMs={NOW_MS}
        keymap={keymap}
        onChoose={chosen}
        onQuit={quit}
      />
    </ThemeContext.Provider>,
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  unmount = () => instance.unmount();
  const frame = (): string => stripAnsi(stdout.frames[stdout.frames.length - 1] ?? '');
  const press = async (...keys: string[]): Promise<void> => {
    for (const key of keys) {
      stdin.write(key);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const waitFor = async (text: string): Promise<string> => {
    await vi.waitFor(() => expect(frame()).toContain(text));
    return frame();
  };
  return { chosen, quit, frame, press, waitFor };
}

describe('the session picker (tole --resume with no id)', () => {
  it("lists this directory's sessions newest first, with when, first prompt, entries, branches and cost", async () => {
    const { project, listed } = sessions();
    const picker = renderPicker(listed, project);
    const frame = await picker.waitFor('resume a session');
    expect(frame).toContain(`resume a session · ${project} · 2 of 2`);
    const rows = frame.split('\n').filter((line) => /ago|yesterday|days/.test(line));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/▸ 20 min ago\s+write the release notes\s+2\s+1\s+\$0/);
    expect(rows[1]).toMatch(/2 days ago\s+fix the flaky test in storage\s+4\s+1\s+\$0/);
    expect(frame).not.toContain('rate limiting');
    expect(frame).toContain(listed.find((s) => s.firstPrompt === 'write the release notes')!.id);
    expect(frame).toContain('⏎ open');
  });

  it('typing filters; ↓ and Enter open the highlighted session', async () => {
    const { project, listed } = sessions();
    const picker = renderPicker(listed, project);
    await picker.waitFor('write the release notes');
    for (const ch of 'flaky') await picker.press(ch);
    const filtered = await picker.waitFor('❯ flaky');
    expect(filtered).toContain('1 of 2');
    expect(filtered).not.toContain('release notes');
    await picker.press('\x7f', '\x7f', '\x7f', '\x7f', '\x7f');
    await picker.waitFor('release notes');
    await picker.press(KEYS.down, KEYS.enter);
    await vi.waitFor(() => expect(picker.chosen).toHaveBeenCalledTimes(1));
    expect(picker.chosen.mock.calls[0]![0].firstPrompt).toBe('fix the flaky test in storage');
    expect(picker.chosen.mock.calls[0]![0].path).toMatch(/\.jsonl$/);
  });

  it('Tab lists every directory; a filter that matches nothing says how to clear it; Esc quits', async () => {
    const { project, listed } = sessions();
    const picker = renderPicker(listed, project);
    await picker.waitFor('release notes');
    await picker.press(KEYS.tab);
    const all = await picker.waitFor('every directory · 3 of 3');
    expect(all).toContain('add rate limiting to the api');
    expect(all).toContain('/elsewhere/api');
    for (const ch of 'zebra') await picker.press(ch);
    await picker.waitFor('nothing matches "zebra" (^U clears the filter)');
    await picker.press(KEYS.enter);
    expect(picker.chosen).not.toHaveBeenCalled();
    await picker.press(KEYS.escape);
    await vi.waitFor(() => expect(picker.quit).toHaveBeenCalledTimes(1));
  });

  it('keys that arrive together each count (a held ↓), and a session that cannot be read says why instead of opening', async () => {
    const { dir, project, listed } = sessions();
    const broken = listed.find((s) => s.firstPrompt === 'fix the flaky test in storage')!;
    const lines = readFileSync(broken.path, 'utf8').split('\n');
    lines[2] = lines[2]!.replace('flaky', 'flakY');
    writeFileSync(broken.path, lines.join('\n'));
    const picker = renderPicker(sessionsForListing(dir, project, true), project);
    await picker.waitFor('release notes');
    await picker.press(KEYS.tab);
    await picker.waitFor('every directory · 3 of 3');
    await picker.press('\x1b[B\x1b[B');
    const frame = await picker.waitFor(`cannot be opened (tole check ${broken.path} says more): line 3`);
    expect(frame).toMatch(/▸ 2 days ago\s+! cannot be opened\s+…\S+\/project\s+-\s+-\s+-/);
    await picker.press(KEYS.enter);
    expect(picker.chosen).not.toHaveBeenCalled();
    await picker.press(KEYS.up, KEYS.enter);
    await vi.waitFor(() => expect(picker.chosen).toHaveBeenCalledTimes(1));
    expect(picker.chosen.mock.calls[0]![0].firstPrompt).toBe('add rate limiting to the api');
  });

  it('follows keymap overrides from the config', async () => {
    const { project, listed } = sessions();
    const picker = renderPicker(listed, project, applyKeymapOverrides({ 'toggle-all': 'ctrl+a' }));
    const frame = await picker.waitFor('release notes');
    expect(frame).toContain('^A all dirs');
    await picker.press('\x01');
    await picker.waitFor('every directory');
  });

  it('runPicker takes the terminal, resolves with the session chosen, and gives the terminal back', async () => {
    const { project, listed } = sessions();
    const stdout = new FakeStdout(100, 24);
    const stdin = new FakeStdin();
    const done = runPicker({
      sessions: listed,
      cwd: project,
      home: '/home/nobody',
      nowMs: NOW_MS,
      theme: 'dark',
      noColor: false,
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
    });
    await vi.waitFor(() => expect(stripAnsi(stdout.frames.join(''))).toContain('write the release notes'));
    stdin.write('release');
    // Enter once the list shows the filter's one match, not after a fixed wait.
    await eventually(async () => {
      const shown = await shownText(stdout.frames.join(''), 100, 24);
      expect(shown).toContain('write the release notes');
      expect(shown).not.toContain('fix the flaky test in storage');
    });
    stdin.write('\r');
    const exit = await done;
    expect(exit).toMatchObject({ reason: 'chosen', session: { firstPrompt: 'write the release notes' } });
    const written = stdout.frames.join('');
    expect(written.startsWith('\x1b[?1049h')).toBe(true);
    expect(written.endsWith('\x1b[?1049l')).toBe(true);
  });
});
