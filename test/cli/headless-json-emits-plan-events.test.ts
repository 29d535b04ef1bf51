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
