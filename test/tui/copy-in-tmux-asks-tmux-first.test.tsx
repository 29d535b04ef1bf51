/**
 * `/copy` inside tmux asks tmux (a fake `tmux` on PATH here) whether a clipboard sequence gets
 * through before claiming it copied: with allow-passthrough on (or a tmux too old to have the
 * option) it goes through the passthrough, with set-clipboard on tmux takes plain OSC 52, and with
 * both off (tmux 3.3's defaults) it says what to set and leaves the answer in tmux's paste buffer.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tmuxClipboard } from '../../src/cli/tmux-clipboard';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { KEYS, renderScreen, type Screen } from './harness';
import { wiredSession } from './wired-session';
import { tempDirForTest } from '../support/after-the-test';

const FAKE_TMUX = `#!/bin/sh
echo "$*" >> "$FAKE_TMUX_DIR/log"
case "$*" in
  *allow-passthrough*)
    if [ -n "$FAKE_PASSTHROUGH_ERROR" ]; then echo "$FAKE_PASSTHROUGH_ERROR" >&2; exit 1; fi
    echo "$FAKE_PASSTHROUGH" ;;
  *set-clipboard*) echo "$FAKE_SET_CLIPBOARD" ;;
  load-buffer*) cat > "$FAKE_TMUX_DIR/buffer" ;;
esac
`;

let screen: Screen | undefined;
let server: ChatServer;
let dir: string;
beforeEach(async () => {
  server = await startChatServer();
  dir = tempDirForTest('tole-fake-tmux-');
  writeFileSync(join(dir, 'tmux'), FAKE_TMUX);
  chmodSync(join(dir, 'tmux'), 0o755);
});
afterEach(async () => {
  screen?.unmount();
  screen = undefined;
  await server.close();
});

/** A session whose last answer is "hi" (aGk= in base64), on a screen inside the fake tmux. */
async function copyInTmux(options: Record<string, string>, path = `${dir}:/usr/bin:/bin`): Promise<string[]> {
  const wired = wiredSession({ baseUrl: server.url, model: 'tole-test-model' });
  server.push({ text: ['hi'] });
  await wired.agent.runTurn('first', new AbortController().signal, () => {});
  const written: string[] = [];
  const env = { PATH: path, TMUX: '/tmp/tmux-1000/default,42,0', TMUX_PANE: '%7', FAKE_TMUX_DIR: dir, ...options };
  screen = renderScreen({
    ...wired,
    columns: 160,
    rows: 40,
    multiplexer: 'tmux',
    tmux: tmuxClipboard(env),
    writeTerminal: (data) => written.push(data),
  });
  await screen.type('/copy');
  await screen.press(KEYS.enter);
  return written;
}

describe('/copy inside tmux', () => {
  it('with passthrough and set-clipboard off: says so and what to set, writes nothing, fills the paste buffer', async () => {
    const written = await copyInTmux({ FAKE_PASSTHROUGH: 'off', FAKE_SET_CLIPBOARD: 'external' });
    await screen!.waitFor('not copied to the clipboard: tmux drops OSC 52');
    expect(screen!.frame()).toContain('tmux set -g allow-passthrough on');
    await screen!.waitFor('paste buffer');
    expect(written).toEqual([]);
    expect(readFileSync(join(dir, 'buffer'), 'utf8')).toBe('hi');
    // Asked about tole's own pane.
    expect(readFileSync(join(dir, 'log'), 'utf8')).toContain('show-options -Apv -t %7 allow-passthrough');
    expect(screen!.frame()).not.toContain('copied the last answer');
  });

  it('with allow-passthrough on: the sequence goes through the passthrough', async () => {
    const written = await copyInTmux({ FAKE_PASSTHROUGH: 'on' });
    await screen!.waitFor("copied the last answer (2 bytes, 1 line) with OSC 52 through tmux's passthrough");
    expect(written).toEqual(['\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\']);
  });

  it('with set-clipboard on: plain OSC 52, which tmux takes and hands to the terminal', async () => {
    const written = await copyInTmux({ FAKE_PASSTHROUGH: 'off', FAKE_SET_CLIPBOARD: 'on' });
    await screen!.waitFor('(set-clipboard on)');
    expect(written).toEqual(['\x1b]52;c;aGk=\x07']);
    expect(existsSync(join(dir, 'buffer'))).toBe(false);
  });

  it('a tmux before 3.3 (no allow-passthrough option) always passed it through', async () => {
    const written = await copyInTmux({ FAKE_PASSTHROUGH_ERROR: 'invalid option: allow-passthrough' });
    await screen!.waitFor("through tmux's passthrough");
    expect(written).toEqual(['\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\']);
  });

  it('a tmux that cannot be asked: sent through the passthrough, saying tmux could not be asked', async () => {
    const written = await copyInTmux({}, '/nonexistent');
    await screen!.waitFor('tmux could not be asked');
    expect(written).toEqual(['\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\']);
  });
});
