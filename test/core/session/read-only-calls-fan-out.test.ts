/**
 * ReadOnly calls of one model reply run side by side through the real turn loop (the real
 * provider over HTTP to the local chat server, the real store, policy and registry), while the
 * session file keeps the calls' order: intents, then settlements, whatever order the effects end in.
 * Concurrency is shown by a gate: each call waits until all of them have started, and fails when
 * that does not happen within a few seconds (which is what running them one by one does).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest } from '../../../src/core/approval/approver';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { HookRunner } from '../../../src/core/hooks/hook-runner';
import { machineState } from '../../../src/core/machine/machine';
import { NS } from '../../../src/core/registers/namespaces';
import { SessionStore } from '../../../src/core/storage/session-store';
import type { Tool } from '../../../src/core/tools/tool';
import type { AnyEntry } from '../../../src/core/tree/entry-types';
import type { RecordedRequest } from '../../support/chat-server';
import { chatRequests, entriesOf, eventLog, markerTools, markerCount } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest({ dirsPrefix: 'tole-fanout-' });

/** How long a gate's call waits for the others by default: only a failing test waits this long. */
const GATE_TIMEOUT_MS = 5_000;
const keyInput = z.strictObject({ key: z.string().min(1) });

interface Gate {
  readonly tool: Tool<{ key: string }>;
  /** Keys in the order their effects started, and ended. */
  readonly started: string[];
  readonly finished: string[];
  /** Everything that happened, in order (other tools of a test write here too). */
  readonly log: string[];
}

/**
 * A ReadOnly tool whose calls each wait until `together` of them have started (or fail after a
 * timeout), then end in the reverse of their start order: the last one started ends first.
 * With `untilAbort`, a call waits for the turn's abort instead of ending; `timeoutMs` is how long
 * a call waits for the others (GATE_TIMEOUT_MS unless given).
 */
function gateTool(together: number, options: { untilAbort?: boolean; log?: string[]; timeoutMs?: number } = {}): Gate {
  const started: string[] = [];
  const finished: string[] = [];
  const log = options.log ?? [];
  const ended = new Map<string, Promise<void>>();
  const endOf = new Map<string, () => void>();
  let allStarted!: () => void;
  const everyoneIn = new Promise<void>((resolve) => {
    allStarted = resolve;
  });
  const tool: Tool<{ key: string }> = {
    name: 'gate_read',
    description: 'Reads the key once enough calls have started (test tool).',
    inputSchema: keyInput,
    replay: 'idempotent',
    tier: 'cold',
    declaredRisk: 'ReadOnly',
    assess: () => ({ risk: 'ReadOnly', reason: 'reads a key' }),
    subject: (input) => input.key,
    execute: async (input, ctx) => {
      const { key } = input;
      started.push(key);
      log.push(`start ${key}`);
      const index = started.length - 1;
      ended.set(key, new Promise((resolve) => endOf.set(key, resolve)));
      if (started.length === together) allStarted();
      if (options.untilAbort) {
        await new Promise<void>((resolve) => {
          if (ctx.signal.aborted) resolve();
          ctx.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        return { ok: false, content: `stopped reading ${key}` };
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), options.timeoutMs ?? GATE_TIMEOUT_MS);
      });
      const met = await Promise.race([everyoneIn.then(() => 'met' as const), timeout]);
      clearTimeout(timer);
      if (met === 'timeout') {
        endOf.get(key)!();
        return { ok: false, content: `only ${started.length} of ${together} calls started together` };
      }
      // The one started after this one ends first.
      const later = started[index + 1];
      if (later !== undefined) await ended.get(later);
      finished.push(key);
      log.push(`end ${key}`);
      endOf.get(key)!();
      return { ok: true, content: `read ${key}` };
    },
  };
  return { tool, started, finished, log };
}

function gateCall(key: string): { id: string; name: string; arguments: string } {
  return { id: `call_${key}`, name: 'gate_read', arguments: JSON.stringify({ key }) };
}

/** The tool entries in file order, as `type callId`. */
function toolRecords(entries: readonly AnyEntry[]): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.type === 'tool_intent' || entry.type === 'tool_result' || entry.type === 'approval')
      out.push(`${entry.type} ${entry.payload.callId}`);
  }
  return out;
}

/** The same, from a fresh read-only replay of the session file. */
function replayedToolRecords(path: string): string[] {
  const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(3), readOnly: true });
  try {
    return toolRecords(entriesOf(store));
  } finally {
    store.close();
  }
}

function toolMessages(request: RecordedRequest | undefined): [string, string][] {
  return (request?.body?.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => [String(m['tool_call_id']), String(m.content)]);
}

describe('ReadOnly calls of one reply run side by side, settled in the order of the calls', () => {
  it('three gate reads all run at once, end in reverse, and are committed intents-first in call order', async () => {
    const gate = gateTool(3);
    scripted.server.push({ toolCalls: [gateCall('a'), gateCall('b'), gateCall('c')] }, { text: 'read all three' });
    const { agent, store } = scripted.agent({ extraTools: [gate.tool] });
    const log = eventLog();

    const result = await agent.runTurn('read a, b and c', new AbortController().signal, log.emit);

    expect(result).toEqual({ outcome: 'done', text: 'read all three' });
    expect(gate.started).toEqual(['a', 'b', 'c']);
    expect(gate.finished).toEqual(['c', 'b', 'a']);
    const expected = [
      'tool_intent call_a',
      'tool_intent call_b',
      'tool_intent call_c',
      'tool_result call_a',
      'tool_result call_b',
      'tool_result call_c',
    ];
    expect(toolRecords(entriesOf(store))).toEqual(expected);
    const results = entriesOf(store).filter((e) => e.type === 'tool_result');
    expect(results.map((e) => (e.type === 'tool_result' ? e.payload.outcome : null))).toEqual(['ok', 'ok', 'ok']);
    // Every intent went in one line, before any effect: they share one commit seq.
    const intentSeqs = new Set(entriesOf(store).flatMap((e) => (e.type === 'tool_intent' ? [e.seq] : [])));
    expect(intentSeqs.size).toBeLessThanOrEqual(3);
    expect(log.events.filter((e) => e.type === 'tool-result').map((e) => 'callId' in e && e.callId)).toEqual([
      'call_a',
      'call_b',
      'call_c',
    ]);
    expect(store.registers.entries(NS.pending)).toEqual([]);
    expect(machineState(store).pc).toBe('Final');
    const path = store.path;
    store.close();
    expect(replayedToolRecords(path)).toEqual(expected);
    // The model reads the results in the order it asked.
    expect(toolMessages(chatRequests(scripted.server)[1])).toEqual([
      ['call_a', 'read a'],
      ['call_b', 'read b'],
      ['call_c', 'read c'],
    ]);
  });

  it('with readConcurrency 1 the same calls run one at a time (and the gate times out)', async () => {
    // Here the gate is meant to time out, so it need not wait long: what decides is the order of
    // the records (run side by side, both intents would come before either result).
    const gate = gateTool(2, { timeoutMs: 100 });
    scripted.server.push({ toolCalls: [gateCall('a'), gateCall('b')] }, { text: 'done' });
    const { agent, store } = scripted.agent({ extraTools: [gate.tool], deps: { readConcurrency: 1 } });
    await agent.runTurn('read a and b', new AbortController().signal, () => {});
    expect(toolRecords(entriesOf(store))).toEqual([
      'tool_intent call_a',
      'tool_result call_a',
      'tool_intent call_b',
      'tool_result call_b',
    ]);
    const [first] = entriesOf(store).filter((e) => e.type === 'tool_result');
    expect(first?.type === 'tool_result' && first.payload.content).toBe('only 1 of 2 calls started together');
    store.close();
  }, 20_000);

  it('a mixed batch keeps the model order: reads side by side, the approved write alone between them', async () => {
    const shared: string[] = [];
    const gate = gateTool(2, { log: shared });
    // A second gate for the reads after the write, so that each pair must run together.
    const later = gateTool(2, { log: shared });
    const laterTool = { ...later.tool, name: 'gate_read_later' };
    const [marker] = markerTools();
    const asked: { callId: string; settledBefore: string[] }[] = [];
    const settled = (): string[] =>
      entriesOf(store)
        .filter((e) => e.type === 'tool_result')
        .map((e) => (e.type === 'tool_result' ? e.payload.callId : ''));
    const approver = {
      decide: async (request: ApprovalRequest) => {
        asked.push({ callId: request.callId, settledBefore: settled() });
        shared.push(`approve ${request.callId}`);
        return { approved: true, by: 'user' } as const;
      },
    };
    scripted.server.push(
      {
        toolCalls: [
          gateCall('a'),
          gateCall('b'),
          { id: 'call_w', name: 'marker_idempotent', arguments: JSON.stringify({ key: 'w' }) },
          { id: 'call_c', name: 'gate_read_later', arguments: JSON.stringify({ key: 'c' }) },
          { id: 'call_d', name: 'gate_read_later', arguments: JSON.stringify({ key: 'd' }) },
        ],
      },
      { text: 'mixed done' },
    );
    const { agent, store } = scripted.agent({ extraTools: [gate.tool, laterTool, marker!], approver });

    const result = await agent.runTurn('mixed', new AbortController().signal, () => {});

    expect(result.outcome).toBe('done');
    expect(toolRecords(entriesOf(store))).toEqual([
      'tool_intent call_a',
      'tool_intent call_b',
      'tool_result call_a',
      'tool_result call_b',
      'tool_intent call_w',
      'approval call_w',
      'tool_result call_w',
      'tool_intent call_c',
      'tool_intent call_d',
      'tool_result call_c',
      'tool_result call_d',
    ]);
    // The write was asked about once both reads before it were settled, and before the reads after it started.
    expect(asked).toEqual([{ callId: 'call_w', settledBefore: ['call_a', 'call_b'] }]);
    expect(shared).toEqual([
      'start a',
      'start b',
      'end b',
      'end a',
      'approve call_w',
      'start c',
      'start d',
      'end d',
      'end c',
    ]);
    expect(markerCount(scripted.dirs.root, 'marker_idempotent', 'w')).toBe(1);
    const outcomes = entriesOf(store).flatMap((e) => (e.type === 'tool_result' ? [e.payload.outcome] : []));
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    store.close();
  });

  it('an abort mid-batch stops every call in flight and settles each, in order; a call not started settles as not run', async () => {
    const gate = gateTool(2, { untilAbort: true });
    scripted.server.push({ toolCalls: [gateCall('a'), gateCall('b'), gateCall('c')] });
    // Two at a time: c waits for a free slot and is still waiting when the abort comes.
    const { agent, store } = scripted.agent({ extraTools: [gate.tool], deps: { readConcurrency: 2 } });
    const controller = new AbortController();
    const emit = (): void => {
      if (gate.started.length === 2 && !controller.signal.aborted) controller.abort();
    };
    const poll = setInterval(emit, 5);
    const result = await agent.runTurn('read and stop', controller.signal, () => {});
    clearInterval(poll);

    expect(result.outcome).toBe('aborted');
    expect(gate.started).toEqual(['a', 'b']);
    expect(toolRecords(entriesOf(store))).toEqual([
      'tool_intent call_a',
      'tool_intent call_b',
      'tool_intent call_c',
      'tool_result call_a',
      'tool_result call_b',
      'tool_result call_c',
    ]);
    const results = entriesOf(store).flatMap((e) => (e.type === 'tool_result' ? [e.payload] : []));
    expect(results.map((r) => r.outcome)).toEqual(['interrupted', 'interrupted', 'interrupted']);
    expect(results[0]!.content).toBe('interrupted by the user: stopped reading a');
    expect(results[2]!.content).toBe('not run: the turn was interrupted by the user');
    expect(store.registers.entries(NS.pending)).toEqual([]);
    expect(store.registers.entries(NS.opState)).toEqual([]);
    expect(machineState(store).pc).toBe('Final');
    expect(chatRequests(scripted.server)).toHaveLength(1);
    store.close();
  });

  it('preToolUse and postToolUse run per call in call order; a block settles that call in its place', async () => {
    const gate = gateTool(2);
    const hookLog = join(scripted.dirs.parent, 'hooks.log');
    const record = `echo "$TOLE_EVENT $TOLE_CALL_ID" >> '${hookLog}'`;
    const hooks = HookRunner.create({
      config: {
        preToolUse: `${record}; if [ "$TOLE_CALL_ID" = call_b ]; then echo "not b" >&2; exit 2; fi`,
        postToolUse: record,
      },
      cwd: scripted.dirs.root,
    });
    scripted.server.push({ toolCalls: [gateCall('a'), gateCall('b'), gateCall('c')] }, { text: 'hooked' });
    const { agent, store } = scripted.agent({ extraTools: [gate.tool], deps: { hooks } });

    const result = await agent.runTurn('read with hooks', new AbortController().signal, () => {});

    expect(result.outcome).toBe('done');
    // a and c ran together (the gate of two was met), b was blocked before its intent.
    expect(gate.started).toEqual(['a', 'c']);
    expect(readFileSync(hookLog, 'utf8').trim().split('\n')).toEqual([
      'preToolUse call_a',
      'preToolUse call_b',
      'preToolUse call_c',
      'postToolUse call_a',
      'postToolUse call_c',
    ]);
    expect(toolRecords(entriesOf(store))).toEqual([
      'tool_intent call_a',
      'tool_intent call_c',
      'tool_result call_a',
      'tool_result call_b',
      'tool_result call_c',
    ]);
    const outcomes = entriesOf(store).flatMap((e) => (e.type === 'tool_result' ? [e.payload.outcome] : []));
    expect(outcomes).toEqual(['ok', 'blocked', 'ok']);
    store.close();
  });
});
