import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineState } from '../../../src/core/machine/machine';
import { NS } from '../../../src/core/registers/namespaces';
import type { SessionEvent } from '../../../src/core/session/events';
import type { Tool } from '../../../src/core/tools/tool';
import { liveProcessesInGroup, waitFor } from '../../support/process-groups';
import { chatRequests, markerTools, entriesOfType, ledger, resultsFor } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

describe('an interrupted turn is settled, never left pending', () => {
  it('mid-stream: the partial text is kept as an interrupted assistant entry and the turn ends aborted', async () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i} `);
    scripted.server.push({ text: words, delayMs: 20 });
    const { agent, store } = scripted.agent();
    const controller = new AbortController();
    let streamed = '';
    const emit = (event: SessionEvent): void => {
      if (event.type !== 'text') return;
      streamed += event.delta;
      if (streamed.length >= 3 * 'wordNN '.length) controller.abort();
    };

    const result = await agent.runTurn('talk for a while', controller.signal, emit);

    expect(result.outcome).toBe('aborted');
    const assistants = entriesOfType(store, 'assistant');
    expect(assistants).toHaveLength(1);
    const kept = assistants[0]!.payload;
    expect(kept.finishReason).toBe('interrupted');
    expect(kept.text.length).toBeGreaterThan(0);
    expect(words.join('').startsWith(kept.text)).toBe(true);
    expect(kept.text.length).toBeLessThan(words.join('').length);
    expect(result.text).toBe(kept.text);
    expect(machineState(store).pc).toBe('Final');
    expect(ledger(store).map((row) => row.outcome)).toEqual(['aborted']);
    store.close();
  });

  it('mid-tool: a running `sleep 30` is killed with its process group and settled as interrupted', async () => {
    const pidFile = join(scripted.dirs.root, 'bash.pid');
    const command = `echo $$ > ${pidFile}; sleep 30; echo never`;
    scripted.server.push(
      { toolCalls: [{ id: 'call_sleep', name: 'bash', arguments: JSON.stringify({ command }) }] },
      { text: 'not reached' },
    );
    // No sandbox here: a Write shell command runs without a key only by a rule naming it exactly.
    const { agent, store } = scripted.agent({ policy: { rules: [`bash:${command}`] } });
    const controller = new AbortController();

    const turn = agent.runTurn('wait', controller.signal, () => {});
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 'the command to start');
    const pgid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(liveProcessesInGroup(pgid).length).toBeGreaterThan(0);
    controller.abort();
    const result = await turn;

    expect(result.outcome).toBe('aborted');
    const settled = resultsFor(store, 'call_sleep');
    expect(settled).toHaveLength(1);
    expect(settled[0]!.payload.outcome).toBe('interrupted');
    expect(settled[0]!.payload.content).not.toContain('never');
    expect(store.registers.entries(NS.pending)).toEqual([]);
    expect(machineState(store).pc).toBe('Final');
    expect(liveProcessesInGroup(pgid)).toEqual([]);
    expect(chatRequests(scripted.server)).toHaveLength(1);
    store.close();
  });

  it('a tool that completes its effect despite the abort is settled as ok, not as interrupted', async () => {
    const controller = new AbortController();
    const finishAnyway: Tool<{ key: string }> = {
      ...markerTools()[2]!,
      name: 'finish_anyway',
      execute: async (input, ctx) => {
        controller.abort(); // Esc arrives while the effect is already done
        appendFileSync(join(ctx.workspaceRoot, 'done.log'), `${input.key}\n`);
        return { ok: true, content: `wrote ${input.key}` };
      },
    };
    scripted.server.push({ toolCalls: [{ id: 'call_done', name: 'finish_anyway', arguments: '{"key":"k"}' }] });
    const { agent, store } = scripted.agent({ extraTools: [finishAnyway], policy: { rules: ['finish_anyway'] } });

    const result = await agent.runTurn('write', controller.signal, () => {});

    expect(result.outcome).toBe('aborted');
    expect(readFileSync(join(scripted.dirs.root, 'done.log'), 'utf8')).toBe('k\n');
    expect(resultsFor(store, 'call_done').map((e) => [e.payload.outcome, e.payload.content])).toEqual([
      ['ok', 'wrote k'],
    ]);
    store.close();
  });

  it('before a tool starts: later calls of the round are settled as interrupted, not run', async () => {
    scripted.server.push({
      toolCalls: [
        { id: 'call_one', name: 'list_dir', arguments: '{"path":"."}' },
        { id: 'call_two', name: 'list_dir', arguments: '{"path":"."}' },
      ],
    });
    // One at a time: two ReadOnly calls would otherwise run side by side (read-only-calls-fan-out covers that).
    const { agent, store } = scripted.agent({ deps: { readConcurrency: 1 } });
    const controller = new AbortController();
    const emit = (event: SessionEvent): void => {
      if (event.type === 'tool-result' && event.callId === 'call_one') controller.abort();
    };

    const result = await agent.runTurn('look twice', controller.signal, emit);

    expect(result.outcome).toBe('aborted');
    expect(resultsFor(store, 'call_one').map((e) => e.payload.outcome)).toEqual(['ok']);
    expect(resultsFor(store, 'call_two').map((e) => e.payload.outcome)).toEqual(['interrupted']);
    expect(store.registers.entries(NS.pending)).toEqual([]);
    store.close();
  });
});
