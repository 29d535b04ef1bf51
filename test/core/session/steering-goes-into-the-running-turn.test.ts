import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session/events';
import type { RecordedRequest } from '../../support/chat-server';
import { chatRequests, entriesOf, entriesOfType } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

function roles(request: RecordedRequest | undefined): string[] {
  return (request?.body?.messages ?? []).map((m) => `${m.role}${m.role === 'user' ? `:${String(m.content)}` : ''}`);
}

describe('steering a running turn', () => {
  it("goes in after the tool results in flight, as a user entry, with the same turn's next call; a second one before that call replaces the first", async () => {
    writeFileSync(join(scripted.dirs.root, 'a.txt'), 'alpha\n');
    scripted.server.push(
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: '{"path":"a.txt"}' }] },
      { text: ['Short answer, as you asked.'] },
    );
    const { agent, store } = scripted.agent();
    const events: SessionEvent[] = [];
    const emit = (event: SessionEvent): void => {
      events.push(event);
      if (event.type === 'tool-call') {
        expect(agent.steer('make it long')).toBe(true);
        expect(agent.steer('keep it short')).toBe(true);
      }
    };

    const result = await agent.runTurn('read a.txt', new AbortController().signal, emit);

    expect(result.outcome).toBe('done');
    expect(entriesOf(store).map((e) => e.type)).toEqual([
      'user',
      'assistant',
      'tool_intent',
      'tool_result',
      'user',
      'assistant',
    ]);
    const steered = entriesOfType(store, 'user')[1]!;
    expect(steered.payload).toEqual({ text: 'keep it short', steered: true });
    const [, second] = chatRequests(scripted.server);
    expect(roles(second)).toEqual(['system', 'user:read a.txt', 'assistant', 'tool', 'user:keep it short']);
    expect(events.filter((e) => e.type === 'steered')).toEqual([
      { type: 'steered', entryId: steered.id, text: 'keep it short' },
    ]);
    expect(agent.steer('too late')).toBe(false);
  });

  it('sent while the model answers without a tool call, the answer stays and the turn goes on to answer the steering', async () => {
    scripted.server.push({ text: ['First ', 'answer.'], delayMs: 50 }, { text: ['Second answer.'] });
    const { agent, store } = scripted.agent();
    let sent = false;
    const emit = (event: SessionEvent): void => {
      if (event.type === 'text' && !sent) sent = agent.steer('and in French?');
    };

    const result = await agent.runTurn('hello', new AbortController().signal, emit);

    expect(result).toEqual({ outcome: 'done', text: 'Second answer.' });
    expect(entriesOf(store).map((e) => `${e.type}:${'text' in e.payload ? e.payload.text : ''}`)).toEqual([
      'user:hello',
      'assistant:First answer.',
      'user:and in French?',
      'assistant:Second answer.',
    ]);
    expect(chatRequests(scripted.server)).toHaveLength(2);
  });

  it('a turn that stops before its next call leaves the steering to be taken back, not lost', async () => {
    scripted.server.push({ text: ['never'], delayMs: 5_000 });
    const { agent } = scripted.agent();
    const abort = new AbortController();
    const emit = (event: SessionEvent): void => {
      if (event.type === 'state' && event.state.pc === 'Planning') {
        agent.steer('one more thing');
        abort.abort();
      }
    };
    const result = await agent.runTurn('start', abort.signal, emit);
    expect(result.outcome).toBe('aborted');
    expect(agent.takeSteering()).toBe('one more thing');
    expect(agent.takeSteering()).toBeNull();
  });
});
