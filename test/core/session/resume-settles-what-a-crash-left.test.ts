/**
 * Resume edge cases, in one process: the "crash" is an exception thrown from the fault hook, which
 * leaves the intent committed and unsettled exactly as a SIGKILL would.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NS } from '../../../src/core/registers/namespaces';
import type { FaultPoint } from '../../../src/core/session/agent-deps';
import type { Tool } from '../../../src/core/tools/tool';
import { markerCount, markerTools, resultsFor, type AgentOptions } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest({ server: { defaultReply: { text: 'after' } }, dirsPrefix: 'tole-resume-' });

const RULES = ['marker_idempotent', 'marker_guarded', 'marker_never'];

function agentHere(options: Partial<AgentOptions> = {}) {
  return scripted.agent({
    extraTools: markerTools(),
    policy: { rules: RULES },
    ...options,
  });
}

/** Runs a turn whose one marker call "crashes" at `at`; returns the closed session's path. */
async function crashInProcess(tool: string, at: FaultPoint): Promise<string> {
  scripted.server.push({ toolCalls: [{ id: 'call_m', name: tool, arguments: '{"key":"k"}' }] });
  const fault = (point: FaultPoint): void => {
    if (point === at) throw new Error(`simulated crash ${at}`);
  };
  const { agent, store } = agentHere({ fault });
  await expect(agent.runTurn('go', new AbortController().signal, () => {})).rejects.toThrow(/simulated crash/);
  expect(store.registers.entries(NS.pending)).toHaveLength(1);
  store.close();
  return store.path;
}

describe('resume', () => {
  it('the next turn of the same agent settles an intent an exception left behind', async () => {
    scripted.server.push({ toolCalls: [{ id: 'call_m', name: 'marker_idempotent', arguments: '{"key":"k"}' }] });
    let armed = true;
    const fault = (point: FaultPoint): void => {
      if (armed && point === 'after-intent') {
        armed = false;
        throw new Error('simulated crash');
      }
    };
    const { agent, store } = agentHere({ fault });
    await expect(agent.runTurn('go', new AbortController().signal, () => {})).rejects.toThrow(/simulated crash/);

    const next = await agent.runTurn('again', new AbortController().signal, () => {});

    expect(next.outcome).toBe('done');
    expect(resultsFor(store, 'call_m').map((e) => e.payload.outcome)).toEqual(['ok']);
    expect(markerCount(scripted.dirs.root, 'marker_idempotent')).toBe(1);
    store.close();
  });

  it('a guard that throws settles the call as outcome unknown, runs nothing, and leaves the session usable', async () => {
    const path = await crashInProcess('marker_guarded', 'after-intent');
    const [idempotent, guarded, never] = markerTools();
    const brokenGuard: Tool<{ key: string }> = {
      ...guarded!,
      guard: async () => {
        throw new Error('EACCES: permission denied, open markers/marker_guarded.log');
      },
    };
    const { agent, store } = agentHere({ sessionPath: path, extraTools: [idempotent!, brokenGuard, never!] });

    expect(await agent.resume(new AbortController().signal, () => {})).toBe(1);

    const settled = resultsFor(store, 'call_m');
    expect(settled.map((e) => e.payload.outcome)).toEqual(['interrupted']);
    expect(settled[0]!.payload.content).toMatch(/EACCES/);
    expect(markerCount(scripted.dirs.root, 'marker_guarded')).toBe(0);
    expect(store.registers.entries(NS.pending)).toEqual([]);
    expect((await agent.runTurn('go on', new AbortController().signal, () => {})).outcome).toBe('done');
    store.close();
  });

  it('a guarded tool without a guard is not run again blindly', async () => {
    const path = await crashInProcess('marker_guarded', 'before-settlement');
    const [idempotent, guarded, never] = markerTools();
    const { guard: _dropped, ...unguarded } = guarded!;
    const { agent, store } = agentHere({ sessionPath: path, extraTools: [idempotent!, unguarded, never!] });

    await agent.resume(new AbortController().signal, () => {});

    expect(resultsFor(store, 'call_m').map((e) => e.payload.outcome)).toEqual(['interrupted']);
    expect(markerCount(scripted.dirs.root, 'marker_guarded')).toBe(1);
    store.close();
  });

  it('a tool that is no longer registered is settled as interrupted, not run', async () => {
    const path = await crashInProcess('marker_idempotent', 'after-intent');
    const { agent, store } = agentHere({ sessionPath: path, extraTools: [], policy: {} });

    await agent.resume(new AbortController().signal, () => {});

    expect(resultsFor(store, 'call_m').map((e) => e.payload.outcome)).toEqual(['interrupted']);
    expect(markerCount(scripted.dirs.root, 'marker_idempotent')).toBe(0);
    store.close();
  });

  it('a read-only view resumes nothing and writes nothing', async () => {
    const path = await crashInProcess('marker_idempotent', 'after-intent');
    const bytes = readFileSync(path);
    const { agent, store } = agentHere({ sessionPath: path, readOnly: true });

    expect(await agent.resume(new AbortController().signal, () => {})).toBe(0);

    expect(markerCount(scripted.dirs.root, 'marker_idempotent')).toBe(0);
    expect(store.registers.entries(NS.pending)).toHaveLength(1);
    store.close();
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });
});
