/**
 * Two drivers of one session: one store has one writer (a second open is locked out), and within
 * it every move is a compare-and-set on the state seq, so a second driver holding the same seq is
 * refused and nothing is committed twice, a settlement least of all.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CasConflictError, machineState, transition } from '../../src/core/machine/machine';
import { NS } from '../../src/core/registers/namespaces';
import { Sandwich } from '../../src/core/session/tool-step';
import { StorageError } from '../../src/core/storage/errors';
import { SessionStore } from '../../src/core/storage/session-store';
import { seededRandom, systemClock } from '../../src/core/clock';
import { entriesOfType, resultsFor } from '../support/agent-fixtures';
import { scriptedAgentPerTest } from '../support/scripted-agent';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'ok' } }, dirsPrefix: 'tole-double-' });

describe('double drive', () => {
  it('a second transition with the same expected seq is a CasConflictError and commits nothing', () => {
    const { store } = scripted.agent();
    const seen = machineState(store);
    transition(store, seen.seq, 'Planning');
    const bytes = readFileSync(store.path);

    expect(() => transition(store, seen.seq, 'Planning')).toThrow(CasConflictError);
    expect(() => transition(store, seen.seq, 'Final')).toThrow(CasConflictError);

    expect(readFileSync(store.path).equals(bytes)).toBe(true);
    store.close();
  });

  it('a settlement driven twice from the same state is committed once', () => {
    const { store, deps } = scripted.agent();
    const sandwich = new Sandwich(deps, () => {});
    const tool = deps.tools.get('list_dir')!;
    const request = {
      callId: 'call_twice',
      tool: 'list_dir',
      subject: '.',
      input: { path: '.' },
      risk: 'ReadOnly' as const,
      reason: 'lists a directory',
    };
    let state = sandwich.move(machineState(store), 'Planning');
    state = sandwich.move(state, 'ToolCall');
    state = sandwich.commitIntent(state, request, tool, { approved: true, by: 'policy' }, undefined);
    const result = {
      callId: 'call_twice',
      tool: 'list_dir',
      outcome: 'ok' as const,
      content: 'a listing',
      tier: 'cold' as const,
    };

    sandwich.settle(state, result, true);
    expect(() => sandwich.settle(state, result, true)).toThrow(CasConflictError);

    expect(resultsFor(store, 'call_twice')).toHaveLength(1);
    expect(store.registers.get(NS.pending, 'call_twice')).toBeUndefined();
    store.close();
    const reopened = SessionStore.open(store.path, { clock: systemClock, random: seededRandom(5), readOnly: true });
    expect(resultsFor(reopened, 'call_twice')).toHaveLength(1);
    expect(entriesOfType(reopened, 'tool_intent')).toHaveLength(1);
    reopened.close();
  });

  it('a second writer cannot open the session while the first holds it', () => {
    const { store } = scripted.agent();
    let thrown: unknown;
    try {
      SessionStore.open(store.path, { clock: systemClock, random: seededRandom(6) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StorageError);
    expect((thrown as StorageError).kind).toBe('locked');
    expect((thrown as Error).message).toMatch(new RegExp(`locked by pid ${process.pid}`));
    store.close();
  });

  it('one agent runs one turn at a time: a second runTurn while one runs is refused', async () => {
    scripted.server.push({ text: ['slow ', 'answer'], delayMs: 50 });
    const { agent, store } = scripted.agent();

    const first = agent.runTurn('one', new AbortController().signal, () => {});
    await expect(agent.runTurn('two', new AbortController().signal, () => {})).rejects.toThrow(/one turn at a time/);
    expect((await first).outcome).toBe('done');

    expect(entriesOfType(store, 'user').map((e) => e.payload.text)).toEqual(['one']);
    store.close();
  });
});
