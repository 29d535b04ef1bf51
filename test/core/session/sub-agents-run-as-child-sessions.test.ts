/**
 * The `task` tool through the real turn loop: the real provider over HTTP to the local chat
 * server, one scripted model per session told apart by the request (a child's request carries its
 * brief as the first user message), the real store, policy and registry. A child is a session
 * file of its own beside the parent's; its final answer is the parent call's result.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, Decision } from '../../../src/core/approval/approver';
import { newSessionId, seededRandom, systemClock } from '../../../src/core/clock';
import { NS } from '../../../src/core/registers/namespaces';
import { machineState } from '../../../src/core/machine/machine';
import { SessionStore } from '../../../src/core/storage/session-store';
import { StorageError } from '../../../src/core/storage/errors';
import type { FaultPoint } from '../../../src/core/session/agent-deps';
import type { ParentLink } from '../../../src/core/storage/records';
import { SubAgents, type ChildEvent } from '../../../src/core/session/sub-agents';
import type { SubAgentLimits } from '../../../src/core/session/sub-agent-limits';
import { taskTool } from '../../../src/core/session/task-tool';
import type { RecordedRequest, ScriptedReply } from '../../support/chat-server';
import { chatRequests, entriesOfType, markerCount, markerTools, type AgentOptions } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

let route: (request: RecordedRequest) => ScriptedReply;

const scripted = scriptedAgentPerTest({ server: { respond: (request) => route(request) }, dirsPrefix: 'tole-task-' });

type Message = { readonly role: string; readonly content?: unknown };

function messagesOf(request: RecordedRequest): Message[] {
  return (request.body?.messages ?? []) as Message[];
}

/** The first user message: the parent's prompt, or a child's brief. */
function firstUser(request: RecordedRequest): string {
  const found = messagesOf(request).find((m) => m.role === 'user');
  return typeof found?.content === 'string' ? found.content : '';
}

function toolMessages(request: RecordedRequest): string[] {
  return messagesOf(request)
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content));
}

function taskCall(id: string, prompt: string, extra: Record<string, string> = {}) {
  return { id, name: 'task', arguments: JSON.stringify({ prompt, ...extra }) };
}

function withTasks(options: Partial<AgentOptions> = {}, limits?: SubAgentLimits) {
  const built = scripted.agent(options);
  const agents = new SubAgents({
    deps: built.deps,
    model: () => 'tole-test-model',
    profile: async (name) => {
      if (name !== 'reviewer') throw new Error(`there is no agent profile named "${name}"`);
      return { profile: { name, systemPrompt: 'You review.', tools: ['read_file'] }, model: 'review-model' };
    },
    clock: systemClock,
    random: seededRandom(0x5ab),
    ...(limits ? { limits } : {}),
  });
  built.deps.tools.register(taskTool(agents));
  return { ...built, agents };
}

function childFiles(parentPath: string): string[] {
  return readdirSync(scripted.dirs.sessions)
    .filter((name) => name.endsWith('.jsonl') && join(scripted.dirs.sessions, name) !== parentPath)
    .map((name) => join(scripted.dirs.sessions, name));
}

function openReadOnly(path: string): SessionStore {
  return SessionStore.open(path, { clock: systemClock, random: seededRandom(9), readOnly: true });
}

describe('the task tool', () => {
  it("gives the child only its brief, and its answer (with its session id) is the parent call's result", async () => {
    route = (request) => {
      const prompt = firstUser(request);
      if (prompt === 'parent secret prompt')
        return toolMessages(request).length === 0
          ? { text: 'delegating', toolCalls: [taskCall('call_t', 'count the files', { description: 'Count files' })] }
          : { text: 'all done' };
      return { text: `child answer to: ${prompt}` };
    };
    const { agent, store } = withTasks({ policy: {} });

    const turn = await agent.runTurn('parent secret prompt', new AbortController().signal, () => {});

    expect(turn).toEqual({ outcome: 'done', text: 'all done' });
    const childRequests = chatRequests(scripted.server).filter((r) => firstUser(r) !== 'parent secret prompt');
    expect(childRequests).toHaveLength(1);
    const sent = messagesOf(childRequests[0]!);
    expect(sent.map((m) => m.role)).toEqual(['system', 'user']);
    expect(JSON.stringify(sent)).not.toContain('parent secret prompt');
    expect(JSON.stringify(sent)).not.toContain('delegating');
    expect(sent[1]!.content).toBe('Count files\n\ncount the files');

    const [child] = childFiles(store.path);
    const childStore = openReadOnly(child!);
    const intent = entriesOfType(store, 'tool_intent')[0]!;
    expect(intent.payload.prepared).toEqual({ sessionId: childStore.header.id });
    expect(childStore.header.parent).toEqual({
      sessionId: store.header.id,
      entryId: intent.id,
      path: store.path,
      task: { callId: 'call_t', agent: null, depth: 1 },
    });
    const [result] = entriesOfType(store, 'tool_result');
    expect(result!.payload.outcome).toBe('ok');
    expect(result!.payload.content).toBe(
      `child answer to: Count files\n\ncount the files\n\n(sub-agent, session ${childStore.header.id})`,
    );
    // The child's usage is in its own file, not the parent's.
    expect(childStore.usage).toHaveLength(1);
    expect(store.usage).toHaveLength(2);
    childStore.close();
    store.close();
  });

  it("caps a long answer like other tool output, keeping the child's session id at its end", async () => {
    const long = `${'finding '.repeat(20_000)}THE-END`;
    route = (request) =>
      firstUser(request) === 'delegate'
        ? toolMessages(request).length === 0
          ? { toolCalls: [taskCall('call_t', 'report at length')] }
          : { text: 'ok' }
        : { text: long };
    const { agent, store } = withTasks({ policy: {}, deps: { toolOutputCapBytes: 4096 } });

    await agent.runTurn('delegate', new AbortController().signal, () => {});

    const [result] = entriesOfType(store, 'tool_result');
    const content = result!.payload.content;
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(4096);
    expect(content.startsWith('finding finding')).toBe(true);
    const childId = openReadOnly(childFiles(store.path)[0]!).header.id;
    expect(content.endsWith(`THE-END\n\n(sub-agent, session ${childId})`)).toBe(true);
    store.close();
  });

  it("hands the child the parent's task state with the brief when the parent keeps a plan", async () => {
    const plan = {
      plan: [
        { step: 'map the code', status: 'in_progress' },
        { step: 'fix the bug', status: 'pending' },
      ],
    };
    route = (request) => {
      const prompt = firstUser(request);
      if (prompt === 'plan then delegate') {
        const seen = toolMessages(request).length;
        if (seen === 0) return { toolCalls: [{ id: 'call_p', name: 'update_plan', arguments: JSON.stringify(plan) }] };
        if (seen === 1) return { toolCalls: [taskCall('call_t', 'map src/core')] };
        return { text: 'ok' };
      }
      return { text: 'mapped' };
    };
    const { agent, store } = withTasks({ policy: {} });

    await agent.runTurn('plan then delegate', new AbortController().signal, () => {});

    const child = chatRequests(scripted.server).find((r) => firstUser(r).startsWith('map src/core'))!;
    const brief = firstUser(child);
    expect(brief).toMatch(/^map src\/core\n\nFor context, the task state of the agent that started you/);
    expect(brief).toContain('1. [>] map the code');
    expect(brief).toContain('2. [ ] fix the bug');
    expect(JSON.stringify(messagesOf(child))).not.toContain('plan then delegate');
    store.close();
  });

  it('runs three children side by side and commits their results in call order', async () => {
    const arrived: string[] = [];
    let allIn!: () => void;
    const together = new Promise<void>((resolve) => {
      allIn = resolve;
    });
    const finishing: string[] = [];
    route = (request) => {
      const prompt = firstUser(request);
      if (prompt === 'fan out')
        return toolMessages(request).length === 0
          ? { toolCalls: [taskCall('call_a', 'brief a'), taskCall('call_b', 'brief b'), taskCall('call_c', 'brief c')] }
          : { text: `parent saw ${toolMessages(request).length} results` };
      arrived.push(prompt);
      if (arrived.length === 3) allIn();
      // Each child answers only once all three are in flight; c first, a last.
      const delayMs = { 'brief a': 60, 'brief b': 30, 'brief c': 0 }[prompt] ?? 0;
      return {
        holdUntil: together.then(() => new Promise((r) => setTimeout(r, delayMs))).then(() => finishing.push(prompt)),
        text: `answer ${prompt.slice(-1)}`,
      };
    };
    const { agent, store } = withTasks({ policy: {} });

    const turn = await agent.runTurn('fan out', new AbortController().signal, () => {});

    expect(turn.text).toBe('parent saw 3 results');
    expect(arrived.sort()).toEqual(['brief a', 'brief b', 'brief c']);
    const results = entriesOfType(store, 'tool_result');
    expect(results.map((r) => r.payload.callId)).toEqual(['call_a', 'call_b', 'call_c']);
    expect(results.map((r) => r.payload.content.split('\n')[0])).toEqual(['answer a', 'answer b', 'answer c']);
    expect(childFiles(store.path)).toHaveLength(3);
    store.close();
  });

  it('runs no more children at once than limits.maxParallelTasks', async () => {
    let inFlight = 0;
    let most = 0;
    const waiting: (() => void)[] = [];
    route = (request) => {
      const prompt = firstUser(request);
      if (prompt === 'four tasks')
        return toolMessages(request).length === 0
          ? { toolCalls: ['1', '2', '3', '4'].map((n) => taskCall(`call_${n}`, `brief ${n}`)) }
          : { text: 'done' };
      inFlight++;
      most = Math.max(most, inFlight);
      // Two in flight let the first go; each one that ends lets the next one in.
      const release = new Promise<void>((resolve) => waiting.push(resolve));
      if (inFlight === 2) waiting.shift()!();
      return {
        holdUntil: release.then(() => {
          inFlight--;
          waiting.shift()?.();
        }),
        text: `answer ${prompt}`,
      };
    };
    const { agent, store } = withTasks({ policy: {} }, { maxParallelTasks: 2, maxTaskDepth: 1, childMaxSteps: 5 });

    await agent.runTurn('four tasks', new AbortController().signal, () => {});

    expect(most).toBe(2);
    expect(entriesOfType(store, 'tool_result').map((r) => r.payload.outcome)).toEqual(['ok', 'ok', 'ok', 'ok']);
    store.close();
  });

  it("runs a profile's prompt, tools and model, and offers a child no task tool of its own", async () => {
    route = (request) => {
      const prompt = firstUser(request);
      if (prompt === 'review it')
        return toolMessages(request).length === 0
          ? { toolCalls: [taskCall('call_r', 'review src', { agent: 'reviewer' })] }
          : { text: 'reviewed' };
      return { text: 'looks fine' };
    };
    const { agent, store } = withTasks({ policy: {} });

    await agent.runTurn('review it', new AbortController().signal, () => {});

    const child = chatRequests(scripted.server).find((r) => firstUser(r) === 'review src')!;
    expect(child.body?.model).toBe('review-model');
    expect(messagesOf(child)[0]!.content).toBe('You review.');
    const offered = (child.body?.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(offered).toEqual(['read_file']);
    const parentTools = (chatRequests(scripted.server)[0]!.body?.tools ?? []).map(
      (t) => (t as { function: { name: string } }).function.name,
    );
    expect(parentTools).toContain('task');
    const [result] = entriesOfType(store, 'tool_result');
    expect(result!.payload.content).toMatch(/^looks fine\n\n\(sub-agent reviewer, session [0-9]+-[0-9a-f]{6}\)$/);
    store.close();
  });

  it('settles the call as failed, with why, for an unknown profile or a child that hits its step limit', async () => {
    route = (request) => {
      const prompt = firstUser(request);
      if (prompt === 'two tasks')
        return toolMessages(request).length === 0
          ? { toolCalls: [taskCall('call_x', 'x', { agent: 'nobody' }), taskCall('call_y', 'loop forever')] }
          : { text: 'ok' };
      return { toolCalls: [{ name: 'list_dir', arguments: '{"path":"."}' }] };
    };
    const { agent, store } = withTasks({ policy: {} }, { maxParallelTasks: 3, maxTaskDepth: 1, childMaxSteps: 2 });

    await agent.runTurn('two tasks', new AbortController().signal, () => {});

    const [unknown, looping] = entriesOfType(store, 'tool_result');
    expect(unknown!.payload).toMatchObject({ outcome: 'error' });
    expect(unknown!.payload.content).toBe('the sub-agent was not started: there is no agent profile named "nobody"');
    expect(looping!.payload.outcome).toBe('error');
    expect(looping!.payload.content).toMatch(
      /^the sub-agent could not finish: stopped after 2 model calls \(max steps\).*\(sub-agent, session /,
    );
    expect(childFiles(store.path)).toHaveLength(1);
    store.close();
  });

  it('counts the steps a child took before a crash: one at maxSteps - 1 gets exactly one more after the resume', async () => {
    route = (request) => {
      if (firstUser(request) === 'delegate')
        return toolMessages(request).length === 0
          ? { toolCalls: [taskCall('call_t', 'keep listing')] }
          : { text: 'ok' };
      return { toolCalls: [{ name: 'list_dir', arguments: '{"path":"."}' }] };
    };
    const childCalls = () => chatRequests(scripted.server).filter((r) => firstUser(r) === 'keep listing').length;
    // Intents: the parent's task call, then the child's first list_dir, then its second: a crash
    // there (a failed write stops the parent's turn as a kill would) leaves the child at step 2 of 3.
    let intents = 0;
    const fault = (point: FaultPoint): void => {
      if (point === 'after-intent' && ++intents === 3) throw new StorageError('not-committed', 'simulated crash');
    };
    const limits = { maxParallelTasks: 3, maxTaskDepth: 1, childMaxSteps: 3 };
    const crashed = withTasks({ policy: {}, fault }, limits);
    await expect(crashed.agent.runTurn('delegate', new AbortController().signal, () => {})).rejects.toThrow(
      /simulated crash/,
    );
    crashed.store.close();
    expect(childCalls()).toBe(2);

    const resumed = withTasks({ policy: {}, sessionPath: crashed.store.path }, limits);
    await resumed.agent.resume(new AbortController().signal, () => {});

    expect(childCalls()).toBe(3);
    const [result] = entriesOfType(resumed.store, 'tool_result');
    expect(result!.payload.outcome).toBe('error');
    expect(result!.payload.content).toMatch(
      /^the sub-agent could not finish: stopped after 3 model calls \(max steps\)/,
    );
    resumed.store.close();
  });

  it("asks about a child's call on the parent's approver, naming the child, and reports its events", async () => {
    route = (request) => {
      const prompt = firstUser(request);
      if (prompt === 'mark it')
        return toolMessages(request).length === 0
          ? { toolCalls: [taskCall('call_m', 'write the marker')] }
          : { text: 'ok' };
      return toolMessages(request).length === 0
        ? { toolCalls: [{ name: 'marker_never', arguments: '{"key":"k"}' }] }
        : { text: 'marked' };
    };
    const asked: ApprovalRequest[] = [];
    const approver = {
      decide: async (request: ApprovalRequest): Promise<Decision> => {
        asked.push(request);
        return { approved: true, by: 'user' };
      },
    };
    const { agent, store, agents } = withTasks({ approver, extraTools: markerTools() });
    const seen: ChildEvent[] = [];
    agents.onChildEvent((event) => seen.push(event));

    await agent.runTurn('mark it', new AbortController().signal, () => {});

    expect(asked.map((r) => r.tool)).toEqual(['marker_never']);
    const childId = openReadOnly(childFiles(store.path)[0]!).header.id;
    expect(asked[0]!.agent).toBe(`sub-agent (session ${childId})`);
    expect(markerCount(scripted.dirs.root, 'marker_never')).toBe(1);
    expect(seen.every((e) => e.callId === 'call_m' && e.sessionId === childId)).toBe(true);
    expect(seen.filter((e) => e.event.type === 'usage')).toHaveLength(2);
    expect(entriesOfType(store, 'tool_result')[0]!.payload.content).toMatch(/^marked\n/);
    expect(store.registers.entries(NS.pending)).toEqual([]);
    store.close();
  });

  it('stops the parent and every child on one abort (Esc): each call settles as interrupted', async () => {
    const controller = new AbortController();
    let inFlight = 0;
    route = (request) => {
      const prompt = firstUser(request);
      if (prompt === 'two long tasks')
        return { toolCalls: [taskCall('call_1', 'long one'), taskCall('call_2', 'long two')] };
      inFlight++;
      if (inFlight === 2) controller.abort();
      return { hangMs: 30_000 };
    };
    const { agent, store } = withTasks({ policy: {} });

    const turn = await agent.runTurn('two long tasks', controller.signal, () => {});

    expect(turn.outcome).toBe('aborted');
    expect(entriesOfType(store, 'tool_result').map((r) => [r.payload.callId, r.payload.outcome])).toEqual([
      ['call_1', 'interrupted'],
      ['call_2', 'interrupted'],
    ]);
    for (const child of childFiles(store.path)) {
      const childStore = openReadOnly(child);
      // Each child's turn was closed (not left mid-turn for a resume to pick up), with no answer.
      expect(machineState(childStore).pc).toBe('Final');
      expect(entriesOfType(childStore, 'assistant')).toEqual([]);
      childStore.close();
    }
    store.close();
  });

  // A file under the child's id is driven only when its header names this session's very call.
  const FOREIGN_HEADERS: readonly {
    readonly made: string;
    readonly parent: (own: SessionStore) => ParentLink | undefined;
    readonly names: RegExp;
  }[] = [
    { made: 'no parent', parent: () => undefined, names: /its header names no parent call/ },
    {
      made: 'a fork of this session (no call)',
      parent: (own) => ({ sessionId: own.header.id, entryId: 'e1', path: own.path }),
      names: /its header names no parent call/,
    },
    {
      made: "another session's task call of the same id",
      parent: () => ({
        sessionId: '1000000000-abcdef',
        entryId: 'e1',
        task: { callId: 'call_x', agent: null, depth: 1 },
      }),
      names: /its header names call call_x of session 1000000000-abcdef/,
    },
    {
      made: 'another call of this session',
      parent: (own) => ({
        sessionId: own.header.id,
        entryId: 'e1',
        path: own.path,
        task: { callId: 'call_other', agent: null, depth: 1 },
      }),
      names: /its header names call call_other of session [0-9]+-[0-9a-f]{6}/,
    },
  ];

  it.each(
    FOREIGN_HEADERS,
  )("never drives a file under the child's id whose header names $made: the call fails naming the file, which is left as it was", async ({
    parent,
    names,
  }) => {
    route = (request) =>
      firstUser(request) === 'go'
        ? toolMessages(request).length === 0
          ? { toolCalls: [taskCall('call_x', 'hijack')] }
          : { text: 'ok' }
        : { text: 'should not run' };
    const fixed = { nowMs: () => 1_000, nowNs: () => 1_000_000_000n };
    const childId = newSessionId(fixed, seededRandom(0x77));
    const built = scripted.agent({ policy: {} });
    const link = parent(built.store);
    const planted = SessionStore.create(scripted.dirs.sessions, {
      clock: fixed,
      random: seededRandom(1),
      cwd: scripted.dirs.root,
      id: childId,
      ...(link ? { parent: link } : {}),
    });
    planted.close();
    const plantedBytes = readFileSync(planted.path);
    const agents = new SubAgents({
      deps: built.deps,
      model: () => 'tole-test-model',
      profile: async () => {
        throw new Error('no profiles here');
      },
      clock: fixed,
      random: seededRandom(0x77),
    });
    built.deps.tools.register(taskTool(agents));

    await built.agent.runTurn('go', new AbortController().signal, () => {});

    const [result] = entriesOfType(built.store, 'tool_result');
    expect(result!.payload.outcome).toBe('error');
    expect(result!.payload.content).toContain(
      `the sub-agent could not be started: the session file ${planted.path} is not this call's sub-agent`,
    );
    expect(result!.payload.content).toMatch(names);
    expect(chatRequests(scripted.server).some((r) => firstUser(r) === 'hijack')).toBe(false);
    expect(readFileSync(planted.path)).toEqual(plantedBytes);
    expect(built.store.registers.entries(NS.pending)).toEqual([]);
    built.store.close();
  });
  it("settles the call as failed, naming the file, when the file under the child's id is damaged", async () => {
    route = (request) =>
      firstUser(request) === 'go'
        ? toolMessages(request).length === 0
          ? { toolCalls: [taskCall('call_x', 'hijack')] }
          : { text: 'ok' }
        : { text: 'should not run' };
    const fixed = { nowMs: () => 1_000, nowNs: () => 1_000_000_000n };
    const damaged = join(scripted.dirs.sessions, `${newSessionId(fixed, seededRandom(0x77))}.jsonl`);
    writeFileSync(damaged, 'this is not a session\n');
    const built = scripted.agent({ policy: {} });
    const agents = new SubAgents({
      deps: built.deps,
      model: () => 'tole-test-model',
      profile: async () => {
        throw new Error('no profiles here');
      },
      clock: fixed,
      random: seededRandom(0x77),
    });
    built.deps.tools.register(taskTool(agents));

    await built.agent.runTurn('go', new AbortController().signal, () => {});

    const [result] = entriesOfType(built.store, 'tool_result');
    expect(result!.payload.outcome).toBe('error');
    expect(result!.payload.content).toMatch(/^the sub-agent could not be started: /);
    expect(result!.payload.content).toContain(damaged);
    expect(chatRequests(scripted.server).some((r) => firstUser(r) === 'hijack')).toBe(false);
    expect(readFileSync(damaged, 'utf8')).toBe('this is not a session\n');
    built.store.close();
  });
});
