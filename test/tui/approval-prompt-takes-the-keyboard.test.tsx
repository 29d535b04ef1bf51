import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import { realAgent } from './agent-fixture';
import { hangingAgent, KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';
import { destructiveRequest, settled, writeRequest } from './approval-fixtures';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

describe('the approval prompt', () => {
  it('shows a Write call with its input, risk and reason; y approves it', async () => {
    screen = renderScreen({
      store: emptyStore(),
      policy: new ApprovalPolicy({ rules: [], yes: false, interactive: true }),
    });
    const decision = screen.approvals.decide(writeRequest, new AbortController().signal);
    const frame = stripAnsi(await screen.waitFor('approve?'));
    const prompt = pane(frame, 'approve?');
    expect(prompt).toContain('write_file');
    expect(prompt).toContain('Write');
    expect(prompt).toContain('notes/todo.md');
    expect(prompt).toContain('content: |');
    expect(prompt).toContain('  - ship the screen');
    expect(prompt).toContain('why: writes a file');
    expect(prompt).toContain('a allow write_file for this session');

    // Typing goes to the prompt, not the input line, until it is answered.
    await screen.press('q');
    expect(await settled(decision)).toBe('pending');
    await screen.press('y');
    expect(await decision).toMatchObject({ approved: true, by: 'user' });
    await screen.waitFor('write_file approved');
    expect(pane(screen.frame(), 'approve?')).toBe('');
  });

  it('n opens the denial field and ⏎ with nothing typed denies the call; N denies at once', async () => {
    screen = renderScreen({ store: emptyStore() });
    const decision = screen.approvals.decide(writeRequest, new AbortController().signal);
    await screen.waitFor('approve?');
    await screen.press('n');
    await screen.waitFor('deny (type first to say why)');
    expect(await settled(decision)).toBe('pending');
    await screen.press(KEYS.enter);
    expect(await decision).toEqual({ approved: false, by: 'user', reason: 'denied at the prompt' });

    const second = screen.approvals.decide({ ...writeRequest, callId: 'call_2' }, new AbortController().signal);
    await screen.waitFor('approve?');
    await screen.press('N');
    expect(await second).toEqual({ approved: false, by: 'user', reason: 'denied at the prompt' });
  });

  it('a allows a Write tool for the session through the policy', async () => {
    const policy = new ApprovalPolicy({ rules: [], yes: false, interactive: true });
    screen = renderScreen({ store: emptyStore(), policy });
    const decision = screen.approvals.decide(writeRequest, new AbortController().signal);
    await screen.waitFor('approve?');
    await screen.press('a');
    expect(await decision).toMatchObject({ approved: true, by: 'user' });
    expect(policy.preDecide({ ...writeRequest, callId: 'call_next' })).toMatchObject({ approved: true, by: 'session' });
  });

  it('draws a Destructive call as Destructive, offers no a, and only y approves it', async () => {
    const policy = new ApprovalPolicy({ rules: [], yes: false, interactive: true });
    screen = renderScreen({ store: emptyStore(), policy });
    const decision = screen.approvals.decide(destructiveRequest, new AbortController().signal);
    const prompt = pane(await screen.waitFor('approve?'), 'approve?');
    expect(prompt).toContain('Destructive');
    expect(prompt).toContain('rm -rf build/');
    expect(prompt).toContain('why: `rm -r` removes a directory tree');
    expect(prompt).toContain('--yes and rules never apply');
    expect(prompt).not.toMatch(/\ba allow/);

    await screen.press('a');
    expect(await settled(decision)).toBe('pending');
    expect(policy.isAllowedForSession('bash')).toBe(false);
    await screen.press('y');
    expect(await decision).toMatchObject({ approved: true, by: 'user' });
  });

  it('Esc stops the turn: the waiting call is denied as interrupted', async () => {
    const agent = hangingAgent();
    screen = renderScreen({ store: emptyStore(), agent });
    await screen.type('go');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(agent.signals).toHaveLength(1));
    const decision = screen.approvals.decide(destructiveRequest, agent.signals[0]!);
    await screen.waitFor('approve?');
    await screen.press(KEYS.escape);
    expect(await decision).toMatchObject({ approved: false, by: 'interrupted' });
    expect(agent.signals[0]!.aborted).toBe(true);
  });

  it('still asks for a Destructive call when the policy was built with --yes, and runs it only after y', async () => {
    const store = emptyStore();
    const fixture = realAgent(
      store,
      [
        {
          chunks: ['Removing the build directory.'],
          toolCalls: [{ id: 'call_rm', name: 'delete_path', arguments: JSON.stringify({ path: 'build' }) }],
        },
        { chunks: ['Done: build/ is gone.'] },
      ],
      { yes: true },
    );
    mkdirSync(join(fixture.workspace, 'build'));
    writeFileSync(join(fixture.workspace, 'build', 'out.js'), 'x');
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
    await screen.type('clean up');
    await screen.press('\r');
    const prompt = pane(await screen.waitFor('approve?'), 'approve?');
    expect(prompt).toContain('delete_path');
    expect(prompt).toContain('Destructive');
    expect(prompt).toContain('--yes and rules never apply');
    expect(existsSync(join(fixture.workspace, 'build'))).toBe(true);

    await screen.press('y');
    await screen.waitFor('Done: build/ is gone.');
    expect(existsSync(join(fixture.workspace, 'build'))).toBe(false);
    expect(readFileSync(store.path, 'utf8')).toContain('"approval"');
  });
});
