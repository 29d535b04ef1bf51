import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runHeadless } from '../../src/cli/headless';
import { startHarness, toolCall } from '../core/hooks/agent-harness';

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { stream, text: () => text };
}

describe('headless --output json', () => {
  it('prints a plan event each time the plan changes, with the step in progress', async () => {
    const step = (status: string, next: string) =>
      toolCall('update_plan', {
        explanation: 'two steps',
        plan: [
          { step: 'look', status },
          { step: 'answer', status: next },
        ],
      });
    const h = await startHarness({
      replies: [step('in_progress', 'pending'), step('completed', 'in_progress'), { text: 'done' }],
    });
    const out = sink();
    const err = sink();
    const code = await runHeadless(h.agent, h.store, 'go', 'json', { stdout: out.stream, stderr: err.stream }, []);
    expect(code).toBe(0);
    const events = out
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; current?: number; plan?: unknown[]; source?: string });
    const plans = events.filter((e) => e.type === 'plan');
    expect(plans.map((e) => [e.source, e.current, e.plan?.length])).toEqual([
      ['tool', 0, 2],
      ['tool', 1, 2],
    ]);
  });
});

describe('headless --output json result event', () => {
  it('carries the run’s total tokens and its cost as the usage ledger has it', async () => {
    const h = await startHarness({
      replies: [{ text: 'done', usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 } }],
    });
    const out = sink();
    const err = sink();
    const code = await runHeadless(h.agent, h.store, 'go', 'json', { stdout: out.stream, stderr: err.stream }, []);
    expect(code).toBe(0);
    const result = out
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; usage?: Record<string, unknown> })
      .find((e) => e.type === 'result');
    const ledger = h.store.usage.map((row) => row.usage as { costUsdMicros: number; priced: boolean });
    const micros = ledger.reduce((sum, row) => sum + row.costUsdMicros, 0);
    expect(micros).toBeGreaterThan(0);
    expect(result?.usage).toEqual({
      totalTokens: 150,
      inputTokens: 120,
      outputTokens: 30,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      costUsd: micros / 1_000_000,
      costKnown: ledger.every((row) => row.priced),
      costEstimated: false,
    });
  });
});
