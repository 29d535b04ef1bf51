import { describe, expect, it } from 'vitest';
import { currentHead } from '../../../src/core/session/cursor';
import { retryPoint } from '../../../src/core/session/retry-point';
import { chatRequests, entriesOfType, eventLog } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

describe('asking again as a branch', () => {
  it('an answer is asked again from its prompt: the new answer is its sibling on a new branch, the old one stays', async () => {
    scripted.server.push({ text: ['Blue.'] }, { text: ['Green, on second thought.'] });
    const { agent, store } = scripted.agent();
    await agent.runTurn('favourite colour?', new AbortController().signal, eventLog().emit);
    const [prompt] = entriesOfType(store, 'user');
    const [first] = entriesOfType(store, 'assistant');
    expect(retryPoint(store.tree, first!.id)).toBe(prompt!.id);

    const result = await agent.retry(prompt!.id, new AbortController().signal, eventLog().emit);

    expect(result).toEqual({ outcome: 'done', text: 'Green, on second thought.' });
    expect(entriesOfType(store, 'user')).toHaveLength(1);
    const answers = entriesOfType(store, 'assistant');
    expect(answers.map((a) => [a.parentId, a.payload.text])).toEqual([
      [prompt!.id, 'Blue.'],
      [prompt!.id, 'Green, on second thought.'],
    ]);
    const head = currentHead(store);
    expect(head.entryId).toBe(answers[1]!.id);
    expect(head.lane).not.toBe('main');
    const second = chatRequests(scripted.server)[1]!;
    expect((second.body?.messages ?? []).map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('the point to ask again from: a prompt is itself, a tool result goes up to the answer that called it, a blocked prompt has none', () => {
    const tree = new Map<
      string,
      { id: string; parentId: string | null; type: string; payload: Record<string, unknown> }
    >();
    const add = (id: string, parentId: string | null, type: string, payload: Record<string, unknown> = {}): void =>
      void tree.set(id, { id, parentId, type, payload });
    add('u1', null, 'user', { text: 'q' });
    add('a1', 'u1', 'assistant', { text: '' });
    add('i1', 'a1', 'tool_intent');
    add('r1', 'i1', 'tool_result');
    add('u2', 'r1', 'user', { text: 'no', blocked: 'hook' });
    const index = { get: (id: string) => tree.get(id) } as unknown as Parameters<typeof retryPoint>[0];
    expect(retryPoint(index, 'u1')).toBe('u1');
    expect(retryPoint(index, 'r1')).toBe('u1');
    expect(retryPoint(index, 'a1')).toBe('u1');
    expect(retryPoint(index, 'u2')).toBeNull();
  });
});
