/**
 * The built tole in a real pseudo-terminal: keys that arrive in one write (a key repeat, tmux's
 * `send-keys Up Up Up`, a script) each act, in order. Every group below is written at once.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { TerminalDriver } from './terminal-driver';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';

const UP = '\x1b[A';
const PAGE_UP = '\x1b[5~';
const TAB = '\t';
const HOME = '\x1b[H';

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  const rows = Array.from({ length: 200 }, (_, i) => `row ${i + 1}`).join('\n');
  server = await startChatServer({ replies: [{ text: 'first' }, { text: 'second' }, { text: rows }] });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

/** The number of the transcript's top row ("row N"). */
function topRow(screen: string): number {
  const found = /│ row (\d+)\s/.exec(screen.split('\n')[1] ?? '');
  if (!found) throw new Error(`no numbered row at the transcript's top:\n${screen}`);
  return Number(found[1]);
}

describe('keys sent in one write', () => {
  it('Up×5, k×5, PageUp PageUp, Tab Tab, wheel notches and tree j×4 each act, in order; Escape alone still is Escape; a long paste folds and is sent whole; Tab completes /mo; Ctrl-G edits in $EDITOR', async () => {
    const workspace = tempDirForTest('tole-keys-ws-');
    const home = tempDirForTest('tole-keys-home-');
    // The user's editor: it rewrites the prompt's file.
    const editor = join(home, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nprintf "edited: %s" "$(cat "$1")" > "$1"\n');
    chmodSync(editor, 0o755);
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: { TOLE_HOME: home, OPENAI_API_KEY: 'sk-test', EDITOR: editor },
    });
    const term = driver;
    await term.waitFor('type a prompt');
    for (const [prompt, answer] of [
      ['one', 'first'],
      ['two', 'second'],
      ['three', 'row 200'],
    ] as const) {
      term.type(`${prompt}\r`);
      await term.waitFor((s) => s.includes(answer) && /Final · seq/.test(s));
    }

    // Tab Tab: from the prompt past the tree to the transcript.
    term.type(TAB + TAB);
    await term.waitFor('↑↓ scroll');
    const bottom = topRow(await term.screen());
    term.type(UP.repeat(5));
    await term.waitFor((s) => topRow(s) === bottom - 5);
    term.type('k'.repeat(5));
    await term.waitFor((s) => topRow(s) === bottom - 10);
    // One page, to learn its size; then two in one write move two pages.
    term.type(PAGE_UP);
    const page = bottom - 10 - topRow(await term.waitFor((s) => topRow(s) < bottom - 10));
    expect(page).toBeGreaterThan(5);
    term.type(PAGE_UP + PAGE_UP);
    await term.waitFor((s) => topRow(s) === bottom - 10 - 3 * page);

    // The wheel over the transcript scrolls it (3 lines a notch, two notches in one write); a
    // click changes nothing and types nothing. Mouse reporting is on while the screen is up.
    expect(term.raw).toContain('\x1b[?1000h\x1b[?1006h');
    const first = await term.screen();
    const column = first.split('\n')[0]!.indexOf('┬') + 4;
    term.type(`\x1b[<0;${column};10M\x1b[<0;${column};10m\x1b[<65;${column};10M\x1b[<65;${column};10M`);
    await term.waitFor((s) => topRow(s) === bottom - 10 - 3 * page + 6);

    // Shift-Tab back to the tree; its first row, then four down in one write: the fifth row.
    term.type('\x1b[Z');
    await term.waitFor('⏎ check out');
    term.type(HOME);
    await until(async () => (await selectedTreeRow(term)) === 1);
    term.type('jjjj');
    await until(async () => (await selectedTreeRow(term)) === 5);
    expect((await term.screen()).split('\n')[5]).toContain('● three');

    // A lone Escape (to the prompt), then typing: the terminal is still read.
    term.type('\x1b');
    await term.waitFor('⏎ send');
    term.type('still here');
    await term.waitFor('❯ still here');

    // A 200-line paste shows folded, and is sent whole.
    term.type('\x15');
    const pasted = Array.from({ length: 200 }, (_, i) => `pasted line ${i + 1}`).join('\r');
    term.type(`look: \x1b[200~${pasted}\x1b[201~`);
    await term.waitFor('❯ look: [pasted 200 lines #1]');
    const before = server.requests.length;
    term.type('\r');
    await term.waitFor((s) => server.requests.length > before && /Final · seq/.test(s));
    const sent = JSON.stringify(server.requests.at(-1)?.body?.messages?.at(-1));
    expect(sent).toContain('look: pasted line 1\\npasted line 2\\n');
    expect(sent).toContain('pasted line 200');

    // Tab on a slash command being typed completes it instead of moving the focus.
    term.type('/mo\t');
    await term.waitFor('❯ /model');
    expect(await term.screen()).toContain('⏎ send');

    // Ctrl-G: the prompt in $EDITOR; the full screen comes back, drawn whole, with what it saved.
    term.type('\x15draft\x07');
    await term.waitFor((s) => s.includes('❯ edited: draft') && s.includes('─ tree'));
    expect(term.onAlternateScreen).toBe(true);
  }, 90_000);
});

/** The screen row the tree shows selected: the one whose glyph cell has a background no other row's has. */
async function selectedTreeRow(term: TerminalDriver): Promise<number | null> {
  const backgrounds = (await term.cells()).map((row) => [...row.matchAll(CELL)][2]?.[1] ?? '');
  const counts = new Map<string, number>();
  for (const bg of backgrounds) counts.set(bg, (counts.get(bg) ?? 0) + 1);
  const lone = backgrounds.findIndex((bg, y) => y > 0 && y < 30 && counts.get(bg) === 1);
  return lone < 0 ? null : lone;
}

/** A cell as xterm-screen writes it: "char"/width/fg/bg/attributes; group 1 is its background. */
const CELL = /"(?:[^"\\]|\\.)*"\/\d+\/[^/ ]*\/([^/ ]*)\/\d+/g;

/** Polls until `test` holds; the bound only ends a failure. */
async function until(test: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await test()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out');
}
