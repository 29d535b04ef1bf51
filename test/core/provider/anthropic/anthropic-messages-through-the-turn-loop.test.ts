import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../../src/core/clock';
import { AnthropicProvider } from '../../../../src/core/provider/anthropic-messages/anthropic-provider';
import type { GenerationSettings } from '../../../../src/core/provider/provider';
import { findPricing } from '../../../../src/core/usage/pricing';
import {
  buildAgent,
  entriesOfType,
  eventLog,
  ledger,
  noSleep,
  tempDirs,
  type TempDirs,
} from '../../../support/agent-fixtures';
import {
  type AnthropicServer,
  type Block,
  signThinking,
  startAnthropicServer,
} from '../../../support/anthropic-server';

const MODEL = 'claude-sonnet-4-5';
let server: AnthropicServer;
let dirs: TempDirs;

beforeEach(async () => {
  server = await startAnthropicServer({ apiKey: 'sk-ant-test' });
  dirs = tempDirs();
});

afterEach(async () => {
  await server.close();
  dirs.remove();
});

function agentHere(generation?: GenerationSettings) {
  const provider = new AnthropicProvider({
    name: 'anthropic',
    baseURL: server.url,
    apiKey: 'sk-ant-test',
    random: seededRandom(7),
    clock: systemClock,
    sleep: noSleep,
    retry: { jitter: 'none' },
  });
  return buildAgent({
    baseURL: server.url,
    sessionsDir: dirs.sessions,
    workspaceRoot: dirs.root,
    model: MODEL,
    deps: { provider, ...(generation ? { generation } : {}) },
  });
}

function blocksOf(content: string | readonly Block[]): readonly Block[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** Every block of a request that carries a cache breakpoint. */
function breakpoints(index: number): Block[] {
  const body = server.requests[index]!.body;
  const blocks = [
    ...(body.tools ?? []),
    ...(body.system ?? []),
    ...(body.messages ?? []).flatMap((m) => blocksOf(m.content)),
  ];
  return blocks.filter((b) => b['cache_control'] !== undefined);
}

describe('the anthropic-messages kind through the turn loop', () => {
  it('a tool call round trip: tool_use out, tool_result back in the next user turn, with the key and version headers', async () => {
    writeFileSync(join(dirs.root, 'notes.txt'), 'alpha\nbeta\n');
    server.push(
      {
        text: 'Reading it.',
        toolCalls: [{ id: 'toolu_read', name: 'read_file', input: '{"path":"notes.txt"}', fragments: 3 }],
      },
      { text: ['Two ', 'lines.'] },
    );
    const { agent, store } = agentHere();
    const log = eventLog();

    const result = await agent.runTurn('what is in notes.txt?', new AbortController().signal, log.emit);

    expect(result).toEqual({ outcome: 'done', text: 'Two lines.' });
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(first!.headers['x-api-key']).toBe('sk-ant-test');
    expect(first!.headers['anthropic-version']).toBe('2023-06-01');
    expect(first!.body.system?.[0]).toMatchObject({ type: 'text', text: 'You are tole, under test.' });
    expect(first!.body.tools?.some((t) => t['name'] === 'read_file' && typeof t['input_schema'] === 'object')).toBe(
      true,
    );
    const messages = second!.body.messages!;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(blocksOf(messages[1]!.content)).toEqual([
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { path: 'notes.txt' } },
    ]);
    const [toolResult] = blocksOf(messages[2]!.content);
    expect(toolResult).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_read' });
    expect(String(toolResult!['content'])).toContain('beta');
    const calls = entriesOfType(store, 'assistant')[0]!.payload.toolCalls;
    expect(calls).toEqual([{ id: 'toolu_read', name: 'read_file', arguments: '{"path":"notes.txt"}' }]);
  });

  it('thirty turns: every request marks tools, system and the newest message (at most four), and from the second on the ledger shows the prefix read from cache at 10% of the input price', async () => {
    const { agent, store } = agentHere();
    for (let turn = 1; turn <= 30; turn++) {
      server.push({ text: `answer ${turn}: ${'words '.repeat(40)}` });
      const result = await agent.runTurn(
        `question ${turn}: ${'context '.repeat(30)}`,
        new AbortController().signal,
        () => {},
      );
      expect(result.outcome).toBe('done');
    }
    expect(server.requests).toHaveLength(30);
    for (let i = 0; i < 30; i++) {
      const marks = breakpoints(i);
      expect(marks.length).toBeGreaterThanOrEqual(3);
      expect(marks.length).toBeLessThanOrEqual(4);
      const body = server.requests[i]!.body;
      expect(body.tools?.at(-1)?.['cache_control']).toEqual({ type: 'ephemeral' });
      expect(body.system?.at(-1)?.['cache_control']).toEqual({ type: 'ephemeral' });
      expect(blocksOf(body.messages!.at(-1)!.content).at(-1)?.['cache_control']).toEqual({ type: 'ephemeral' });
    }
    const rows = ledger(store);
    expect(rows).toHaveLength(30);
    const price = findPricing(MODEL)!.pricing;
    expect(price.cachedInputUsdPerMTok).toBeCloseTo(price.inputUsdPerMTok * 0.1);
    for (const [i, row] of rows.entries()) {
      const usage = server.requests[i]!.usage!;
      expect(row.cachedInputTokens).toBe(usage.cache_read_input_tokens);
      expect(row.cacheWriteTokens).toBe(usage.cache_creation_input_tokens);
      expect(row.inputTokens).toBe(
        usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
      );
      if (i > 0) expect(row.cachedInputTokens).toBeGreaterThan(row.inputTokens / 2);
      const expected =
        usage.input_tokens * price.inputUsdPerMTok +
        usage.cache_read_input_tokens * price.inputUsdPerMTok * 0.1 +
        usage.cache_creation_input_tokens * price.inputUsdPerMTok * 1.25 +
        usage.output_tokens * price.outputUsdPerMTok;
      expect(row.costUsdMicros).toBe(Math.round(expected));
    }
    const totals = server.totals();
    expect(totals.cache_read_input_tokens).toBeGreaterThan(totals.input_tokens + totals.cache_creation_input_tokens);
  });

  it('thinking streams as reasoning, is recorded with its signature, and goes back unchanged ahead of the tool round', async () => {
    writeFileSync(join(dirs.root, 'a.txt'), 'A\n');
    server.push(
      {
        thinking: 'The user wants a.txt; read it first.',
        toolCalls: [{ id: 'toolu_a', name: 'read_file', input: '{"path":"a.txt"}' }],
      },
      { thinking: 'It says A.', text: 'It says A.' },
    );
    const { agent, store } = agentHere({ thinkingBudgetTokens: 2048 });
    const log = eventLog();

    const result = await agent.runTurn('read a.txt', new AbortController().signal, log.emit);

    expect(result).toEqual({ outcome: 'done', text: 'It says A.' });
    expect(server.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(server.requests[0]!.body.max_tokens).toBeGreaterThan(2048);
    const reasoning = log.events.filter((e) => e.type === 'reasoning').map((e) => (e as { delta: string }).delta);
    expect(reasoning.join('')).toContain('read it first');
    const [withTool, final] = entriesOfType(store, 'assistant');
    expect(withTool!.payload.reasoning).toBe('The user wants a.txt; read it first.');
    expect(withTool!.payload.thinking).toEqual([
      {
        type: 'thinking',
        thinking: 'The user wants a.txt; read it first.',
        signature: signThinking('The user wants a.txt; read it first.'),
      },
    ]);
    expect(final!.payload.thinking?.[0]).toMatchObject({ type: 'thinking', thinking: 'It says A.' });
    // The server refuses a tool round whose thinking is missing or altered; this one was accepted.
    const sentBack = blocksOf(server.requests[1]!.body.messages![1]!.content);
    expect(sentBack[0]).toEqual({
      type: 'thinking',
      thinking: 'The user wants a.txt; read it first.',
      signature: signThinking('The user wants a.txt; read it first.'),
    });
  });

  it('reasoningEffort sets a thinking budget; "none" sends no thinking', async () => {
    server.push({ text: 'one' }, { text: 'two' });
    await agentHere({ reasoningEffort: 'low' }).agent.runTurn('hi', new AbortController().signal, () => {});
    await agentHere({ reasoningEffort: 'none' }).agent.runTurn('hi', new AbortController().signal, () => {});
    expect(server.requests[0]!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(server.requests[1]!.body.thinking).toBeUndefined();
  });
});
