/**
 * The built tole in a real pseudo-terminal asks about a 32-line bash script (`set -e`, thirty
 * `echo … && mkdir …`, then `rm -rf out/d1`): at 160x45, 80x24 and 60x20 every line of it is
 * reached by scrolling the box, the risk, the reason, where it runs and the keys stay on screen,
 * the Destructive line is marked, and nothing is drawn outside the box's borders.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { ensureBuilt, TOLE_JS as TOLE } from '../support/built-tole';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

const SCRIPT_LINES = [
  'set -e',
  ...Array.from({ length: 30 }, (_, i) => `echo "making d${i + 1}" && mkdir -p out/d${i + 1}`),
  'rm -rf out/d1',
];
const SCRIPT = SCRIPT_LINES.join('\n');

/** Where the screens of this test are kept for the closing note, when asked for. */
const CAPTURES = process.env['TOLE_CAPTURES_DIR'];

let server: ChatServer;
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    replies: Array.from({ length: 3 }, () => [
      {
        text: 'I will make the folders.',
        toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command: SCRIPT }) }],
      },
      { text: 'Not run, as you said.' },
    ]).flat(),
  });
}, 120_000);

afterEach(() => driver?.kill('SIGKILL'));
afterAll(async () => server?.close());

/** The rows of the approval box: from its top border (`approve?`) to its bottom border. */
function box(screen: string): string[] {
  const rows = screen.split('\n');
  const top = rows.findIndex((row) => row.includes('approve?'));
  if (top === -1) return [];
  const bottom = rows.findIndex((row, i) => i > top && row.startsWith('╰'));
  return rows.slice(top, bottom + 1);
}

/** The box is drawn whole: a frame written part-way is not read (its keys line last). */
function whole(screen: string, columns: number): boolean {
  const rows = box(screen);
  return (
    rows.length > 2 &&
    rows.at(-1)!.length === columns &&
    /^╰─*╯$/.test(rows.at(-1)!) &&
    screen.includes('Esc stop the turn')
  );
}

/** The text inside the box's borders, one entry per row. */
function inside(rows: readonly string[]): string[] {
  return rows.slice(1, -1).map((row) => row.slice(2, -2));
}

describe.each([
  [160, 45],
  [80, 24],
  [60, 20],
])('the approval box at %ix%i', (columns, rows) => {
  it('reaches every line of a 32-line script by scrolling, keeps the keys, and draws inside its borders', async () => {
    const workspace = tempDirForTest('tole-e2e-box-');
    mkdirSync(join(workspace, 'out'));
    driver = new TerminalDriver({
      args: [TOLE, '--base-url', server.url, '--model', 'gpt-4.1'],
      cwd: workspace,
      env: { TOLE_HOME: tempDirForTest('tole-e2e-home-'), OPENAI_API_KEY: 'sk-test' },
      columns,
      rows,
    });
    await driver.waitFor('type a prompt');
    driver.type('make the folders\r');
    let screen = await driver.waitFor((s) => whole(s, columns));
    const first = screen;
    if (columns >= 100) {
      // The tree and the registers pane give the call one row each, its line breaks shown as ⏎.
      const rowsWithCall = screen.split('\n').filter((row) => row.includes('bash set -e'));
      expect(rowsWithCall.length).toBeGreaterThan(0);
      for (const row of rowsWithCall) expect(row).toMatch(/bash set -e⏎echo/);
      expect(screen).not.toMatch(/^│ echo "making d1" &&…/m);
    }

    const seen = new Set<string>();
    let marked = '';
    for (let step = 0; step < 80; step++) {
      const rowsOfBox = box(screen);
      const text = inside(rowsOfBox);
      // The box is whole on screen: its bottom border is there, every row between its borders.
      expect(rowsOfBox.at(-1)).toMatch(/^╰─*╯$/);
      for (const row of rowsOfBox.slice(1, -1)) expect(row).toMatch(/^│ .* │$/);
      for (const row of rowsOfBox) expect(row.length).toBe(columns);
      // Always there: the tool and its risk, why, where it runs, and the keys.
      expect(text[0]).toMatch(/^bash\s+Destructive $/);
      expect(text.join('\n')).toContain('why: `rm -r`');
      expect(text.join('\n')).toContain('runs: ');
      expect(text.join('\n')).toMatch(/y approve once\s+n deny/);
      expect(text.join('\n')).toContain('Esc stop the turn');
      for (const row of text) {
        const line = /^(!| ) +(\d+) (.*?)\s*$/.exec(row);
        if (line) seen.add(`${line[2]} ${line[3]}`);
        if (line?.[1] === '!') marked += `${line[3]}\n`;
      }
      const position = /rows \d+–(\d+) of (\d+)/.exec(rowsOfBox[0]!);
      if (!position || position[1] === position[2]) break;
      const before = screen;
      driver.type('\x1b[B');
      screen = await driver.waitFor((s) => s !== before && whole(s, columns) && box(s)[0] !== box(before)[0]);
    }
    // Every line of the script, whole (a wrapped line continues on the row under it).
    const numbered = SCRIPT_LINES.map((line, i) => `${i + 1} ${line}`);
    for (const line of numbered) expect(seen, `line not seen: ${line}`).toContain(line);
    expect(marked).toContain('rm -rf out/d1');
    expect(marked).not.toContain('mkdir');

    if (CAPTURES) {
      mkdirSync(CAPTURES, { recursive: true });
      writeFileSync(join(CAPTURES, `${columns}x${rows}-top.txt`), `${first}\n`);
      writeFileSync(join(CAPTURES, `${columns}x${rows}-bottom.txt`), `${screen}\n`);
    }

    // n opens the denial field; ⏎ with nothing typed denies without a message.

    driver.type('n');

    await driver.waitFor('type first to say why');

    driver.type('\r');
    await driver.waitFor('Not run, as you said.');
  });
});
