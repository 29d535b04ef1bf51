import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/core/storage/session-store';
import { realAgent } from './agent-fixture';
import { eventually, hangingAgent, KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { seededRandom } from '../../src/core/clock';
import { emptyStore, fixedClock } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

async function enter(s: Screen, text: string): Promise<void> {
  await s.type(text);
  await s.press(KEYS.enter);
}

describe('!command in the screen', () => {
  it('!echo hi runs in the shell, shows as the user’s with its output, and reaches the next model request', async () => {
    const store = emptyStore();
    const fixture = realAgent(store, [{ chunks: ['It printed hi.'] }]);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });

    await enter(screen, '!echo hi');
    const shown = pane(stripAnsi(await screen.waitFor(/ok · \d+ B/)), 'main ·');
    expect(shown).toMatch(/● you {2}!echo hi/);
    expect(shown).toMatch(/^\s*hi\s*$/m);
    expect(fixture.provider.requests).toHaveLength(0);

    await enter(screen, 'what did it print?');
    await screen.waitFor('It printed hi.');
    const users = fixture.provider.requests[0]!.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual([
      '[the user ran a shell command]\n$ echo hi\n```\nhi\n[exit code 0]\n```',
      'what did it print?',
    ]);
  });

  it('! rm -rf ~ asks with the Destructive box even under --yes; denied, nothing runs', async () => {
    const store = emptyStore();
    const fixture = realAgent(store, [], { yes: true });
    writeFileSync(join(fixture.workspace, 'keep.txt'), 'x');
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });

    await enter(screen, `! rm -rf ~ ${join(fixture.workspace, 'keep.txt')}`);
    const prompt = pane(stripAnsi(await screen.waitFor('approve?')), 'approve?');
    expect(prompt).toContain('Destructive');
    await screen.press('N');
    await screen.waitFor(/⊘ bash {2}denied/);
    expect(existsSync(join(fixture.workspace, 'keep.txt'))).toBe(true);
  });

  it('Esc stops a command that never ends; it settles as interrupted', async () => {
    const store = emptyStore();
    const fixture = realAgent(store, []);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });

    await enter(screen, '!sleep 600');
    await screen.waitFor(/● you {2}!sleep 600/);
    await screen.press(KEYS.escape);
    await screen.waitFor(/↯ bash {2}interrupted/);
  });

  it('output with ESC and CR is shown as text, never sent to the terminal', async () => {
    const store = emptyStore();
    const fixture = realAgent(store, []);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });

    await enter(screen, "!printf 'a\\033[2Jb\\rc\\033]0;pwned\\007d'");
    const frame = await screen.waitFor(/ok · \d+ B/);
    expect(frame).not.toContain('\u001b[2J');
    expect(frame).not.toContain('\u001b]0;');
    expect(frame).not.toContain('\r');
  });

  it('typed while a turn runs, it is not steered into the turn: it waits and runs when the turn ends', async () => {
    const agent = hangingAgent();
    const shells: string[] = [];
    const withShell = Object.assign(agent, {
      runShell: async (command: string) => {
        shells.push(command);
        return { outcome: 'done', text: '' };
      },
    });
    screen = renderScreen({ store: emptyStore(), agent: withShell });
    await enter(screen, 'first');
    await screen.waitFor('Esc stop');
    await enter(screen, '!ls');
    await screen.waitFor('!ls runs when the running turn ends');
    expect(agent.steering).toBeNull();
    expect(shells).toEqual([]);
    agent.finish();
    await eventually(() => expect(shells).toEqual(['ls']));
    expect(agent.prompts).toEqual(['first']);
  });

  it('! alone and ! in a read-only session are refused with a line that says what to do', async () => {
    const store = emptyStore();
    const fixture = realAgent(store, []);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
    await enter(screen, '!');
    await screen.waitFor('type it after the ! (e.g. !git status)');
    expect(store.lastSeq).toBeLessThanOrEqual(1);
    screen.unmount();

    const viewer = SessionStore.open(store.path, { clock: fixedClock(), random: seededRandom(3), readOnly: true });
    screen = renderScreen({ store: viewer, readOnly: true });
    await enter(screen, '!echo hi');
    await screen.waitFor('open read-only: !commands cannot run here');
  });
});
