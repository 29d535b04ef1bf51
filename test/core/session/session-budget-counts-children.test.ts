/**
 * `limits.maxSessionCostUsd`: before every model call of the parent or of a child, the session's
 * cost with its sub-agents' stops the turn once it reaches the budget, with a committed reason
 * saying how to raise it. Scripted models over the local chat server, one per session told apart
 * by the request.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { SessionBudget } from '../../../src/core/session/session-budget';
import { SubAgents } from '../../../src/core/session/sub-agents';
import { taskTool } from '../../../src/core/session/task-tool';
import { SessionStore } from '../../../src/core/storage/session-store';
import { startChatServer, type ChatServer, type RecordedRequest } from '../../support/chat-server';
import { buildAgent, chatRequests, entriesOfType, tempDirs, type TempDirs } from '../../support/agent-fixtures';

let server: ChatServer;
let dirs: TempDirs;

function firstUser(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as { role: string; content?: unknown }[];
  const found = messages.find((m) => m.role === 'user');
  return typeof found?.content === 'string' ? found.content : '';
}

function toolCount(request: RecordedRequest): number {
  return ((request.body?.messages ?? []) as { role: string }[]).filter((m) => m.role === 'tool').length;
}

beforeEach(async () => {
  server = await startChatServer({
    respond: (request) => {
      if (firstUser(request) !== 'start') return { text: 'child report' };
      return toolCount(request) === 0
        ? { text: 'delegating', toolCalls: [{ id: 'call_t', name: 'task', arguments: '{"prompt":"look around"}' }] }
        : { text: 'all done' };
    },
  });
  dirs = tempDirs('tole-budget-');
});

afterEach(async () => {
  await server.close();
  dirs.remove();
});

/** A session whose every model call costs $0.40, with sub-agents and a budget of `maxUsd`. */
function withBudget(maxUsd: number) {
  const budget = new SessionBudget(maxUsd);
  const built = buildAgent({
    baseURL: server.url,
    sessionsDir: dirs.sessions,
    workspaceRoot: dirs.root,
    deps: { budget, price: () => ({ costUsdMicros: 400_000, priced: true }) },
  });
  budget.watch(built.store);
  const agents = new SubAgents({
    deps: built.deps,
    model: () => 'tole-test-model',
    profile: async () => {
      throw new Error('no profiles here');
    },
    clock: systemClock,
    random: seededRandom(0xb0d),
  });
  built.deps.tools.register(taskTool(agents));
  return { ...built, budget };
}

describe('the session budget (limits.maxSessionCostUsd)', () => {
  it("counts the children's cost: the parent stops before a call its own cost alone would allow", async () => {
    const { agent, store, budget } = withBudget(0.7);

    const turn = await agent.runTurn('start', new AbortController().signal, () => {});

    // The parent's call ($0.40) and the child's ($0.40) were made; the parent's second was not.
    expect(chatRequests(server)).toHaveLength(2);
    expect(turn.outcome).toBe('limit');
    expect(turn.text).toContain('this session has cost $0.800 with its sub-agents');
    expect(turn.text).toContain('budget of $0.700 (limits.maxSessionCostUsd)');
    expect(turn.text).toContain('Raise limits.maxSessionCostUsd in your own config');
    const notices = entriesOfType(store, 'notice').map((n) => n.payload.text);
    expect(notices).toContain(turn.text);
    expect(entriesOfType(store, 'tool_result')[0]!.payload.outcome).toBe('ok');
    expect(budget.spentUsd).toBeCloseTo(0.8);
    store.close();
  });

  it('stops a child before its call once the budget is reached: the parent call fails saying why', async () => {
    const { agent, store } = withBudget(0.4);

    const turn = await agent.runTurn('start', new AbortController().signal, () => {});

    expect(chatRequests(server)).toHaveLength(1);
    const [result] = entriesOfType(store, 'tool_result');
    expect(result!.payload.outcome).toBe('error');
    expect(result!.payload.content).toContain('the sub-agent could not finish: stopped: this session has cost $0.400');
    expect(turn.outcome).toBe('limit');
    store.close();
  });

  it("counts what a child's file already holds once, however often the child is opened", async () => {
    const { agent, store } = withBudget(100);
    await agent.runTurn('start', new AbortController().signal, () => {});
    const child = readdirSync(dirs.sessions).find(
      (name) => name.endsWith('.jsonl') && join(dirs.sessions, name) !== store.path,
    )!;
    const reopened = SessionStore.open(join(dirs.sessions, child), {
      clock: systemClock,
      random: seededRandom(2),
      readOnly: true,
    });
    const again = new SessionBudget(100);
    again.watch(store);
    again.count(reopened);
    again.count(reopened);
    // Two parent calls and one child call, at $0.40 each.
    expect(again.spentUsd).toBeCloseTo(1.2);
    reopened.close();
    store.close();
  });

  it('leaves calls with no known price out of the sum, and says how many when it stops', () => {
    const budget = new SessionBudget(0.000001);
    const row = (id: string, usage: object) => ({ kind: 'usage' as const, seq: 1, id, entryId: null, usage });
    const store = {
      header: { id: 's' },
      usage: [
        row('u1', { priced: false, costUsdMicros: 0, inputTokens: 10, outputTokens: 5 }),
        row('u2', { priced: false, costUsdMicros: 0, inputTokens: 0, outputTokens: 0 }),
      ],
    } as unknown as SessionStore;
    budget.count(store);
    expect(budget.unpriced).toBe(1);
    expect(budget.stopReason()).toBeNull();
    budget.count({
      header: { id: 's' },
      usage: [row('u3', { priced: true, costUsdMicros: 5, inputTokens: 1, outputTokens: 1 })],
    } as unknown as SessionStore);
    expect(budget.stopReason()).toContain('1 call with no known price is not counted');
  });
});
