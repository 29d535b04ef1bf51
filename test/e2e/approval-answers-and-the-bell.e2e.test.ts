/**
 * The approval box's answers and its bell, in the built tole in a real pseudo-terminal: `p` keeps
 * a command prefix and the next matching call runs without asking; `p` on a Destructive call is
 * refused and the call still waits; `n` and a reason deny it, and the reason reaches the model in
 * the next request; and while the terminal is unfocused (focus-out, CSI O) a waiting approval
 * rings the bell, with an OSC 9 notification where the terminal says it shows one (WezTerm).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/core/tools/sandbox';
import { APPROVAL_ARM_MS } from '../../src/tui/approval/approval-queue';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

const FOCUS_OUT = '\x1b[O';
const RING = '\x07\x1b]9;tole: approval waiting: bash\x07';
const REASON = 'keep out/a, it holds my work';

let server: ChatServer | undefined;
let driver: TerminalDriver | undefined;
afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

const bash = (id: string, command: string) => ({
  toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command }) }],
});

// A prefix is kept only where the sandbox confines what it approves: without one, p says why.
const suite = detectSandbox(process.platform, process.env.PATH) ? describe : describe.skip;

suite('approval answers and the bell in a terminal (needs the sandbox, bubblewrap)', () => {
  it('p keeps a prefix the next call runs under; p is refused on a Destructive call; n with a reason reaches the model; unfocused, a waiting approval rings', async () => {
    ensureBuilt();
    server = await startChatServer({
      replies: [
        bash('call_a', 'mkdir -p out/a'),
        bash('call_b', 'mkdir -p out/b'),
        bash('call_rm', 'rm -rf out/a'),
        { text: 'I will leave out/a alone.' },
      ],
    });
    const workspace = tempDirForTest('tole-e2e-ws-');
    const home = tempDirForTest('tole-e2e-home-');
    driver = new TerminalDriver({
      args: [TOLE_JS, '--base-url', server.url, '--model', 'm'],
      cwd: workspace,
      env: { TOLE_HOME: home, HOME: home, OPENAI_API_KEY: 'sk-test', TERM_PROGRAM: 'WezTerm' },
    });
    const d = driver;
    await d.waitFor('type a prompt');
    expect(d.raw).toContain('\x1b[?1004h');
    expect(d.raw).not.toContain(RING);
    // The user switches to another window; tole hears it through focus reporting.
    d.type(FOCUS_OUT);
    d.type('make the folders\r');

    // The first call asks, and rings: the terminal is unfocused.
    const asking = await d.waitFor((s) => s.includes('approve?') && s.includes('stop the turn'));
    expect(asking).toContain('mkdir -p out/a');
    expect(asking).toContain('p allow its prefix');
    await waitForRaw(d, RING);

    // p shows the prefix first; p again keeps it (a key before the arming delay is asked again).
    d.type('p');
    await d.waitFor('every command starting mkdir');
    d.type('p');
    const second = await d.waitFor((s) => s.includes('press it again') || s.includes('prefixes mkdir'));
    if (!second.includes('prefixes mkdir')) {
      // Too soon: the box had not been up for the arming delay. A p after it keeps the prefix.
      await new Promise((resolve) => setTimeout(resolve, APPROVAL_ARM_MS));
      d.type('p');
      await d.waitFor('prefixes mkdir');
    }

    // The next mkdir runs without a box; the Destructive rm asks, and offers no p.
    const destructive = await d.waitFor((s) => s.includes('approve? · Destructive') && s.includes('stop the turn'));
    expect(existsSync(join(workspace, 'out', 'a'))).toBe(true);
    expect(existsSync(join(workspace, 'out', 'b'))).toBe(true);
    expect(destructive).toContain('rm -rf out/a');
    expect(destructive).not.toContain('p allow its prefix');
    // The box can be on the screen a moment before its bell's bytes are read: wait for them, then count.
    await d.waitFor(() => ringsIn(d.raw) >= 2);
    expect(ringsIn(d.raw)).toBe(2);
    d.type('p');
    await d.waitFor('no prefix allowed');
    expect(await d.screen()).toContain('approve? · Destructive');

    // n, a reason, ⏎: denied, and the model reads why.
    d.type('n');
    await d.waitFor('deny, telling the model');
    d.type(REASON);
    await d.waitFor(`${REASON}▏`);
    d.type('\r');
    await d.waitFor('I will leave out/a alone.');
    expect(existsSync(join(workspace, 'out', 'a'))).toBe(true);
    expect(JSON.stringify(server.requests.at(-1)?.body?.messages)).toContain(REASON);

    // The record says what approved each call: the key and its prefix, then the prefix alone.
    const sessions = join(home, 'sessions');
    const file = readFileSync(join(sessions, readdirSync(sessions).find((n) => n.endsWith('.jsonl'))!), 'utf8');
    expect(file).toContain('"allowsPrefix":["mkdir"]');
    expect(file).toMatch(/"callId":"call_b"[^\n]*"approval":\{"approved":true,"by":"prefix","rule":"mkdir"\}/);

    d.type('\x03');
    expect((await d.exit).exitCode).toBe(0);
  }, 90_000);
});

/** Times the bell and its notification were written. */
function ringsIn(raw: string): number {
  return raw.split(RING).length - 1;
}

async function waitForRaw(d: TerminalDriver, text: string): Promise<void> {
  await d.waitFor(() => d.raw.includes(text));
}
