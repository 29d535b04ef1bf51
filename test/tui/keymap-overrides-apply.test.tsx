import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main';
import { applyKeymapOverrides, KeymapError, parseChord } from '../../src/tui/input/keymap-overrides';
import { KEYMAP, resolveKey } from '../../src/tui/input/keymap';
import { pane, renderScreen, stripAnsi, KEYS, type Screen } from './harness';
import { prepareSession } from './session-fixture';
import { tempDirForTest } from '../support/after-the-test';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

describe('keymap overrides from the config', () => {
  it('parse chords as a terminal sends them, and refuse what it cannot send', () => {
    expect(parseChord('Ctrl+N')).toBe('ctrl+n');
    expect(parseChord('alt+b')).toBe('meta+b');
    expect(parseChord('enter')).toBe('return');
    expect(parseChord('shift+tab')).toBe('shift+tab');
    expect(parseChord('?')).toBe('?');
    expect(parseChord('G')).toBe('G');
    for (const bad of ['ctrl+', 'hyper+x', 'shift+x', 'ctrl+?', 'f13', '']) expect(parseChord(bad), bad).toBeNull();
  });

  it('replace the keys of the action, and take them from any other binding of its scope', () => {
    const keymap = applyKeymapOverrides({ 'focus-input': 'tab', help: ['ctrl+o', 'f'] });
    const global = { scopes: ['global' as const], conditions: new Set(['idle', 'not-typing'] as const) };
    expect(resolveKey('tab', global, keymap)?.action).toBe('focus-input');
    expect(keymap.find((b) => b.action === 'focus-next')?.keys).toEqual([]);
    expect(resolveKey('ctrl+o', global, keymap)?.action).toBe('help');
    expect(resolveKey('?', global, keymap)).toBeNull();
    expect(KEYMAP.find((b) => b.action === 'help')?.keys).toEqual(['?']);
  });

  it('an unknown action or a bad chord is an error naming the field', () => {
    expect(() => applyKeymapOverrides({ 'focus-nxt': 'tab' })).toThrow(KeymapError);
    expect(() => applyKeymapOverrides({ 'focus-nxt': 'tab' })).toThrow(/did you mean "focus-next"/);
    try {
      applyKeymapOverrides({ help: ['ctrl+o', 'ctrl+'] });
      expect.unreachable();
    } catch (error) {
      expect((error as KeymapError).field).toBe('keymap.help');
      expect((error as KeymapError).message).toContain('"ctrl+" is not a key chord');
    }
  });

  it('the screen answers to the new keys, and shows them in the status bar and in ?', async () => {
    const keymap = applyKeymapOverrides({ 'focus-next': 'ctrl+n', help: 'ctrl+o' });
    screen = renderScreen({ store: prepareSession().store, keymap, columns: 140, rows: 60 });
    const frame = stripAnsi(await screen.waitFor('^N panes'));
    expect(frame).not.toContain('Tab panes');
    expect(frame).toContain('^O keys');

    await screen.press('\x0e');
    await screen.waitFor('check out');
    await screen.press(KEYS.escape);
    await vi.waitFor(() => expect(stripAnsi(screen!.frame())).toContain('⏎ send'));

    await screen.press('?');
    await screen.waitFor('❯ ?');
    await screen.press('\x7f', '\x0f');
    const overlay = pane(await screen.waitFor('keys · Esc or ? closes'), 'keys ·');
    expect(overlay).toMatch(/\^N\s+focus the next pane/);
    expect(overlay).toMatch(/\^O\s+show every key/);
  });

  it('an unparseable chord in the user config stops tole with exit 2 and the field named, before the screen opens', async () => {
    const home = tempDirForTest('tole-home-');
    mkdirSync(join(home, '.config', 'tole'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'tole', 'config.json'),
      JSON.stringify({ keymap: { help: ['ctrl+o', 'ctrl+shift+'] } }),
    );
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk) => (out += String(chunk)));
    stderr.on('data', (chunk) => (err += String(chunk)));
    const code = await main({
      argv: [],
      env: { HOME: home },
      cwd: tempDirForTest('tole-keymap-'),
      stdout,
      stderr,
    });
    expect(code).toBe(2);
    expect(err).toContain('field "keymap.help": "ctrl+shift+" is not a key chord');
    expect(err.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(out).toBe('');
  });
});
