import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { COMPACTION_PROMPT, estimateTokens } from '../../../src/core/session/compaction';
import { SUMMARY_HEADING } from '../../../src/core/session/context';
import { SessionStore } from '../../../src/core/storage/session-store';
import { builtinTools } from '../../../src/core/tools/builtin/index';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { messagesOf, startHarness, SYSTEM_PROMPT, textOf, toolCall } from '../hooks/agent-harness';

const SUMMARY = '## Goal\nsummary-of-the-early-turns\n## Next step\ngo on';

/** Tokens the system prompt and the built-in tool definitions take in every request. */
function baseTokens(): number {
  const tools = ToolRegistry.create({ interactiveApprover: false });
  for (const tool of builtinTools({ workspaceRoot: '/workspace', interactiveApprover: false })) tools.register(tool);
  return estimateTokens([{ role: 'system', content: SYSTEM_PROMPT }], tools.definitions());
}

function prompt(n: number): string {
  return `prompt-${n} ${'x'.repeat(2000)}`;
}

describe('conversation compaction', () => {
  it('past the threshold a summary entry is appended, and the next request is system + summary + hot tail', async () => {
    // Three prompts (about 1,500 tokens) stay under half the window; the fourth goes over.
    const h = await startHarness({
      contextWindowTokens: 2 * (baseTokens() + 1750),
      compaction: { tailMessages: 2 },
      replies: [{ text: 'answer-1' }, { text: 'answer-2' }, { text: 'answer-3' }],
    });
    const ledger: number[] = [];
    for (const n of [1, 2, 3]) {
      await h.run(prompt(n));
      ledger.push(h.store.usage.length);
    }
    expect(h.pathOf('summary')).toEqual([]);
    const entriesBefore = h.store.tree.size;
    const rowsBefore = h.store.usage.map((r) => structuredClone(r));

    h.server.push({ text: SUMMARY }, { text: 'answer-4' });
    const result = await h.run(prompt(4));
    expect(result).toEqual({ outcome: 'done', text: 'answer-4' });

    const [summary] = h.pathOf('summary');
    const answer3 = h.pathOf('assistant')[2]!;
    expect(summary!.payload).toMatchObject({
      kind: 'summary',
      text: SUMMARY,
      model: 'tole-test-model',
      tailFromEntryId: answer3.id,
      trigger: 'threshold',
    });
    expect(h.events).toContainEqual(
      expect.objectContaining({ type: 'compacted', kind: 'summarized', entryId: summary!.id }),
    );

    const requests = h.chatRequests();
    expect(requests).toHaveLength(5);
    const compactionCall = messagesOf(requests[3]!);
    expect(compactionCall[0]).toEqual({ role: 'system', content: COMPACTION_PROMPT });
    expect(compactionCall[1]!.content).toContain('prompt-1');
    expect(compactionCall[1]!.content).not.toContain('prompt-4');
    expect(requests[3]!.body?.tools).toBeUndefined();

    const next = messagesOf(requests[4]!);
    expect(next.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(next[1]!.content).toBe(`${SUMMARY_HEADING}\n${SUMMARY}`);
    expect(next[2]!.content).toBe('answer-3');
    expect(next[3]!.content).toBe(prompt(4));
    expect(textOf(requests[4]!)).not.toContain('prompt-1');

    // Nothing in the tree is deleted: the early turns are still there, and the summary was added.
    expect(h.store.tree.size).toBe(entriesBefore + 3); // the prompt, the summary, the answer
    expect(
      h
        .path()
        .filter((e) => e.type === 'user')
        .map((e) => (e.payload as { text: string }).text.slice(0, 8)),
    ).toEqual(['prompt-1', 'prompt-2', 'prompt-3', 'prompt-4']);
    // The ledger only grows: every earlier row is kept as it was, and the summary call added one.
    expect(h.store.usage.slice(0, rowsBefore.length)).toEqual(rowsBefore);
    expect(h.store.usage).toHaveLength(rowsBefore.length + 2);
    expect(ledger).toEqual([1, 2, 3]);
    const reopened = SessionStore.open(h.store.path, { readOnly: true, clock: systemClock, random: seededRandom(3) });
    const costs = reopened.usage.map((r) => (r.usage as { costUsdMicros: number }).costUsdMicros);
    reopened.close();
    expect(costs).toEqual([7, 7, 7, 7, 7]); // five calls, five priced rows: the session total stays whole
  });

  it('collapses cold tool results older than the hot tail first, without asking the model', async () => {
    // The file (about 1,500 tokens) puts the prompt over half the window; one line of it does not.
    const h = await startHarness({
      contextWindowTokens: 2 * (baseTokens() + 1000),
      compaction: { tailMessages: 2 },
      replies: [toolCall('read_file', { path: 'big.txt' }), { text: 'read it' }, { text: 'second answer' }],
    });
    writeFileSync(path.join(h.root, 'big.txt'), `${'line of the big file\n'.repeat(300)}`);
    await h.run('read big.txt');
    expect(h.pathOf('summary')).toEqual([]); // the read is inside the hot tail: nothing to collapse yet
    await h.run('and now?');

    const [collapse] = h.pathOf('summary');
    expect(collapse!.payload).toMatchObject({ kind: 'collapse', collapsedResults: 1, model: '' });
    const requests = h.chatRequests();
    expect(requests).toHaveLength(3); // no summary call
    const last = messagesOf(requests[2]!);
    const tool = last.find((m) => m.role === 'tool')!;
    expect(tool.content).toMatch(/^\[collapsed by compaction\] read_file big\.txt: \d+ lines, \d+ bytes/);
    expect(textOf(requests[2]!)).not.toContain('line of the big file');
    expect(last.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    // The full result is still in the tree.
    expect(h.pathOf('tool_result')[0]!.payload.content).toContain('line of the big file');
    expect(h.store.usage).toHaveLength(3);
  });

  it('/compact summarizes on demand, and the tail never splits a call from its results', async () => {
    const h = await startHarness({
      compaction: { tailMessages: 2, contextWindowTokens: 1_000_000 },
      replies: [{ text: 'one' }, toolCall('list_dir', { path: '.' }), { text: 'listed' }],
    });
    await h.run('first');
    await h.run('list the workspace');
    h.server.push({ text: SUMMARY });
    const result = await h.agent.compact(new AbortController().signal, () => {});
    expect(result).toMatchObject({ kind: 'summarized' });
    const [summary] = h.pathOf('summary');
    // The last two messages are the list_dir result and "listed": the tail moves back to the call.
    const call = h.pathOf('assistant').find((a) => a.payload.toolCalls.length > 0)!;
    expect(summary!.payload).toMatchObject({ trigger: 'manual', tailFromEntryId: call.id });

    h.server.push({ text: 'after' });
    await h.run('go on');
    const roles = messagesOf(h.chatRequests().at(-1)!).map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('a preCompact hook that exits 2 prevents the compaction', async () => {
    const h = await startHarness({
      compaction: { tailMessages: 2, contextWindowTokens: 1_000_000 },
      hooks: { preCompact: 'echo "keep everything: audit in progress" >&2; exit 2' },
      replies: [{ text: 'one' }, { text: 'two' }],
    });
    await h.run('first');
    await h.run('second');
    const requestsBefore = h.chatRequests().length;
    const result = await h.agent.compact(new AbortController().signal, () => {});
    expect(result).toMatchObject({
      kind: 'blocked',
      reason: expect.stringContaining('keep everything: audit in progress'),
    });
    expect(h.pathOf('summary')).toEqual([]);
    expect(h.chatRequests()).toHaveLength(requestsBefore);
    expect(h.pathOf('notice').map((n) => n.payload.source)).toEqual(['hook', 'loop']);
  });
});
