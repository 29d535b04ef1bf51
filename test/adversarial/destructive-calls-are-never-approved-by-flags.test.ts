/**
 * No flag, rule or headless default approves a Destructive call: `--yes`, `--allow 'bash:*'` and
 * `--allow '*'` leave `rm -rf x` (however it is wrapped) denied, and the directory untouched.
 * Interactively it is asked, and only the user's key runs it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Approver } from '../../src/core/approval/approver';
import { entriesOfType, resultsFor, type AgentOptions } from '../support/agent-fixtures';
import { scriptedAgentPerTest } from '../support/scripted-agent';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'ok' } }, dirsPrefix: 'tole-destructive-' });
// After the fixture's own beforeEach, which made the directories.
beforeEach(() => {
  mkdirSync(join(scripted.dirs.root, 'x'));
  writeFileSync(join(scripted.dirs.root, 'x', 'keep.txt'), 'keep');
});

const WRAPPED = [
  'rm -rf x',
  'rm -r -f x/',
  'bash -c "rm -rf x"',
  "sh -c 'rm -rf x'",
  'echo hi && rm -rf x',
  'true; rm -rf x',
  'echo x | xargs rm -rf',
  'find x -delete',
  'eval "rm -rf x"',
  'echo $(rm -rf x)',
  'echo `rm -rf x`',
  ': > x/keep.txt',
];

const FLAGS: readonly { readonly name: string; readonly policy: NonNullable<AgentOptions['policy']> }[] = [
  { name: '--yes', policy: { yes: true } },
  { name: "--allow 'bash:*'", policy: { rules: ['bash:*'] } },
  { name: "--allow '*'", policy: { rules: ['*'] } },
  { name: "--yes --allow 'bash'", policy: { yes: true, rules: ['bash'] } },
];

describe('headless, a Destructive call is denied whatever the flags say', () => {
  for (const flag of FLAGS) {
    it(`${flag.name}: every wrapping of rm -rf x is denied and x is untouched`, async () => {
      WRAPPED.forEach((command, i) =>
        scripted.server.push({
          toolCalls: [{ id: `call_${i}`, name: 'bash', arguments: JSON.stringify({ command }) }],
        }),
      );
      const { agent, store } = scripted.agent({
        policy: flag.policy,
        limits: { abortAfterFailingRounds: 100, nudgeAfterFailingRounds: 100, stallRounds: 100 },
      });

      const result = await agent.runTurn('clean up', new AbortController().signal, () => {});

      expect(result.outcome).toBe('done');
      WRAPPED.forEach((command, i) => {
        const settled = resultsFor(store, `call_${i}`);
        expect(
          settled.map((e) => e.payload.outcome),
          command,
        ).toEqual(['denied']);
        expect(settled[0]!.payload.content, command).toMatch(/Destructive/);
      });
      expect(entriesOfType(store, 'tool_intent')).toEqual([]);
      expect(existsSync(join(scripted.dirs.root, 'x', 'keep.txt'))).toBe(true);
      store.close();
    });
  }
});

describe('interactively, a Destructive call is always asked', () => {
  it('is asked despite --yes and a matching rule, and a denial leaves x untouched', async () => {
    scripted.server.push({ toolCalls: [{ id: 'call_rm', name: 'bash', arguments: '{"command":"rm -rf x"}' }] });
    const asked: ApprovalRequest[] = [];
    const approver: Approver = {
      decide: async (request) => {
        asked.push(request);
        return { approved: false, by: 'user', reason: 'no' };
      },
    };
    const { agent, store } = scripted.agent({ approver, policy: { yes: true, rules: ['bash:*'], interactive: true } });

    await agent.runTurn('clean up', new AbortController().signal, () => {});

    expect(asked.map((r) => [r.callId, r.risk])).toEqual([['call_rm', 'Destructive']]);
    expect(resultsFor(store, 'call_rm').map((e) => e.payload.outcome)).toEqual(['denied']);
    expect(existsSync(join(scripted.dirs.root, 'x', 'keep.txt'))).toBe(true);
    store.close();
  });

  it('an approver that approves by anything but a user keypress is a bug: nothing runs', async () => {
    scripted.server.push({ toolCalls: [{ id: 'call_rm', name: 'bash', arguments: '{"command":"rm -rf x"}' }] });
    const rogue: Approver = { decide: async () => ({ approved: true, by: 'yes' }) };
    const { agent, store } = scripted.agent({ approver: rogue, policy: { yes: true, interactive: true } });

    await expect(agent.runTurn('clean up', new AbortController().signal, () => {})).rejects.toThrow(/Destructive/);

    expect(existsSync(join(scripted.dirs.root, 'x', 'keep.txt'))).toBe(true);
    expect(resultsFor(store, 'call_rm').filter((e) => e.payload.outcome === 'ok')).toEqual([]);
    store.close();
  });

  it("runs only after the user's own key", async () => {
    scripted.server.push({ toolCalls: [{ id: 'call_rm', name: 'bash', arguments: '{"command":"rm -rf x"}' }] });
    const approver: Approver = { decide: async () => ({ approved: true, by: 'user' }) };
    const { agent, store } = scripted.agent({ approver });

    await agent.runTurn('clean up', new AbortController().signal, () => {});

    expect(resultsFor(store, 'call_rm').map((e) => e.payload.outcome)).toEqual(['ok']);
    expect(existsSync(join(scripted.dirs.root, 'x'))).toBe(false);
    store.close();
  });
});
