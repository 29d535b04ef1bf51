/**
 * The approval box's richer answers: `n` then typing denies with a message (the same record as
 * `d`'s), `p` shows a command prefix and keeps it once confirmed (never for a Destructive call),
 * and `e` edits the command, which is what runs and is recorded beside the model's; an edit that
 * makes the call riskier is asked about again, as itself.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { exportLeaf, exportMarkdown } from '../../src/core/session/export';
import { realAgent } from './agent-fixture';
import { destructiveRequest, settled } from './approval-fixtures';
import { eventually, KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const npmTest: ApprovalRequest = {
  callId: 'call_npm',
  tool: 'bash',
  subject: 'npm test',
  input: { command: 'npm test' },
  risk: 'Write',
  reason: '`npm test` runs the project test script',
  opaque: true,
};

const statusBar = (frame: string): string => stripAnsi(frame).trimEnd().split('\n').at(-1)!;

function bashTurn(id: string, command: string) {
  return { chunks: ['Running it.'], toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command }) }] };
}

describe('the approval box answers', () => {
  it('n, then typing, denies with the message, which reaches the model as the call result', async () => {
    const store = emptyStore();
    const fixture = realAgent(store, [bashTurn('call_t', 'touch made.txt'), { chunks: ['Fine, I will not.'] }]);
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
    await screen.type('make the file');
    await screen.press(KEYS.enter);
    await screen.waitFor('approve?');
    await screen.press('n');
    await screen.type('not in this folder');
    await screen.waitFor('not in this folder▏');
    await screen.press(KEYS.enter);
    await screen.waitFor('Fine, I will not.');
    expect(existsSync(join(fixture.workspace, 'made.txt'))).toBe(false);
    expect(JSON.stringify(fixture.provider.requests[1]?.messages)).toContain(
      'denied by the user, who says: not in this folder',
    );
    expect(readFileSync(store.path, 'utf8')).toContain('"message":"not in this folder"');
  });

  it('p shows the prefix first, keeps it on p, and the next matching call is approved by it; the status bar lists it', async () => {
    const policy = new ApprovalPolicy({ rules: [], yes: false, interactive: true, sandbox: true });
    screen = renderScreen({ store: emptyStore(), policy, columns: 160 });
    const decision = screen.approvals.decide(npmTest, new AbortController().signal);
    const box = pane(stripAnsi(await screen.waitFor('approve?')), 'approve?');
    expect(box).toContain('p allow its prefix');
    await screen.press('p');
    const offered = stripAnsi(await screen.waitFor('every command starting'));
    expect(offered).toContain('every command starting npm test');
    expect(await settled(decision)).toBe('pending');
    await screen.press('p');
    expect(await decision).toMatchObject({ approved: true, by: 'user', allowsPrefix: ['npm', 'test'] });
    await screen.waitFor('prefixes npm test');
    expect(statusBar(screen.frame())).toContain('prefixes npm test');
    expect(policy.preDecide({ ...npmTest, callId: 'next', subject: 'npm test -- --watch' })).toEqual({
      approved: true,
      by: 'prefix',
      rule: 'npm test',
    });
  });

  it('p on a Destructive call says why no prefix is kept, and the call still waits for a key', async () => {
    const policy = new ApprovalPolicy({ rules: [], yes: false, interactive: true, sandbox: true });
    screen = renderScreen({ store: emptyStore(), policy, columns: 160 });
    const decision = screen.approvals.decide(destructiveRequest, new AbortController().signal);
    const box = pane(stripAnsi(await screen.waitFor('approve?')), 'approve?');
    expect(box).not.toContain('allow its prefix');
    await screen.press('p');
    await screen.waitFor('no prefix allowed');
    expect(stripAnsi(screen.frame())).toContain('Destructive: no prefix ever allows a Destructive command');
    expect(await settled(decision)).toBe('pending');
    expect(policy.inForce().prefixes).toEqual([]);
  });

  it('e runs the command as edited and records both; an edit made riskier is asked about again', async () => {
    const store = emptyStore();
    const fixture = realAgent(store, [
      bashTurn('call_e', 'touch one.txt'),
      bashTurn('call_f', 'touch three.txt'),
      { chunks: ['Done with both.'] },
    ]);
    mkdirSync(join(fixture.workspace, 'keep'));
    screen = renderScreen({ store, agent: fixture.agent, approvals: fixture.approvals, policy: fixture.policy });
    await screen.type('make the files');
    await screen.press(KEYS.enter);
    await screen.waitFor('approve?');
    await screen.press('e');
    await screen.waitFor('1 touch one.txt▏');
    for (let i = 0; i < 'one.txt'.length; i++) await screen.press('\u007f');
    await screen.type('two.txt');
    await screen.waitFor('touch two.txt▏');
    await screen.press(KEYS.enter);

    // The second call: edited into a Destructive one, which is shown again as itself and denied.
    // The box, not the transcript's line for the call: the call is vetted before the box opens.
    await eventually(() => expect(pane(stripAnsi(screen!.frame()), 'approve?')).toContain('touch three.txt'));
    await screen.press('e', '\u0015');
    await screen.type('rm -rf keep');
    await screen.press(KEYS.enter);
    const again = pane(stripAnsi(await screen.waitFor(/approve\? · Destructive/)), 'approve?');
    expect(again).toContain('rm -rf keep');
    await screen.press('N');
    await screen.waitFor('Done with both.');

    expect(existsSync(join(fixture.workspace, 'two.txt'))).toBe(true);
    expect(existsSync(join(fixture.workspace, 'one.txt'))).toBe(false);
    expect(existsSync(join(fixture.workspace, 'three.txt'))).toBe(false);
    expect(existsSync(join(fixture.workspace, 'keep'))).toBe(true);
    const file = readFileSync(store.path, 'utf8');
    expect(file).toContain('"subject":"touch one.txt"');
    expect(file).toMatch(/"edited":\{"subject":"touch two.txt","input":\{"command":"touch two.txt"\},"risk":"Write"/);
    expect(exportMarkdown(store, exportLeaf(store, {}))).toContain('edited by the user to run Write `touch two.txt`');
    expect(stripAnsi(screen.frame())).toContain('as you edited it, to run:');
  });
});
