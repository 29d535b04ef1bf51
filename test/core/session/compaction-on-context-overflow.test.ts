import { describe, expect, it } from 'vitest';
import { SUMMARY_HEADING } from '../../../src/core/session/context';
import { messagesOf, MODEL, startHarness, textOf } from '../hooks/agent-harness';

const OVERFLOW = {
  error: {
    status: 400,
    body: {
      error: {
        message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  },
};

async function threeTurns(extra: Parameters<typeof startHarness>[0] = {}) {
  const h = await startHarness({
    compaction: { tailMessages: 2, contextWindowTokens: 1_000_000 },
    replies: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
    ...extra,
  });
  for (const p of ['first question', 'second question', 'third question']) await h.run(p);
  return h;
}

describe('context overflow', () => {
  it('a 400 context-length error compacts the conversation and retries the call once', async () => {
    const h = await threeTurns();
    h.server.push(OVERFLOW, { text: '## Goal\nthe-summary' }, { text: 'four' });
    const rows = h.store.usage.length;
    const result = await h.run('fourth question');
    expect(result).toEqual({ outcome: 'done', text: 'four' });

    const requests = h.chatRequests().slice(3);
    expect(requests).toHaveLength(3); // the overflow, the summary call, the retry
    expect(textOf(requests[0]!)).toContain('first question');
    const retry = messagesOf(requests[2]!);
    expect(retry[1]!.content).toBe(`${SUMMARY_HEADING}\n## Goal\nthe-summary`);
    expect(textOf(requests[2]!)).not.toContain('first question');
    expect(h.pathOf('summary')[0]!.payload).toMatchObject({ trigger: 'overflow', kind: 'summary' });
    // Every attempt has its ledger row, the failed one too.
    expect(h.store.usage.slice(rows).map((r) => (r.usage as { outcome: string }).outcome)).toEqual([
      'context_overflow',
      'ok',
      'ok',
    ]);
  });

  it('a second overflow after compacting ends the turn with a clear error', async () => {
    const h = await threeTurns();
    h.server.push(OVERFLOW, { text: '## Goal\nthe-summary' }, OVERFLOW, { text: 'never asked for' });
    const result = await h.run('fourth question');
    expect(result.outcome).toBe('error');
    expect(result.text).toMatch(/still too long for the model's context window after compaction/);
    expect(h.chatRequests()).toHaveLength(6);
    expect(h.pathOf('notice').at(-1)!.payload).toMatchObject({ level: 'error', source: 'provider' });
  });

  it('when there is nothing to compact the overflow ends the turn and says why', async () => {
    const h = await startHarness({ replies: [OVERFLOW] });
    const result = await h.run('a single prompt');
    expect(result.outcome).toBe('error');
    expect(result.text).toMatch(/compaction could not help \(the conversation is still within its last \d+ messages/);
    expect(h.chatRequests()).toHaveLength(1);
  });

  it('takes the context window from the provider model list when the host gives none', async () => {
    const h = await startHarness({
      models: [{ id: MODEL, object: 'model', context_length: 1_200 }],
      compaction: { tailMessages: 2 },
      replies: [
        { text: 'one' },
        { text: 'two' },
        { text: 'three' },
        { text: '## Goal\nlisted-window' },
        { text: 'four' },
      ],
    });
    for (const p of ['a'.repeat(800), 'b'.repeat(800), 'c'.repeat(800)]) await h.run(p);
    // The tool definitions alone pass 600 tokens, half of 1,200: once there is enough to summarize, a summary is made.
    await h.run('d');
    expect(h.pathOf('summary')[0]?.payload.text).toBe('## Goal\nlisted-window');
    expect(h.server.requests.filter((r) => r.method === 'GET')).toHaveLength(1); // asked once, remembered
  });
});
