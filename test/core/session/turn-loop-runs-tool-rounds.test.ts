import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineState } from '../../../src/core/machine/machine';
import { NS } from '../../../src/core/registers/namespaces';
import { MODEL_OUTPUT_CAP_BYTES } from '../../../src/core/tools/cap-output';
import type { RecordedRequest } from '../../support/chat-server';
import { chatRequests, entriesOf, entriesOfType, eventLog, resultsFor } from '../../support/agent-fixtures';
import { scriptedAgentPerTest } from '../../support/scripted-agent';

const scripted = scriptedAgentPerTest();

/** The `tool` messages of a recorded request, as [id, content]. */
function toolMessages(request: RecordedRequest | undefined): [string, string][] {
  return (request?.body?.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => [String(m['tool_call_id']), String(m.content)]);
}

describe('the turn loop runs tool rounds through the effect sandwich', () => {
  it('reads a file, lists a directory, then answers: entries in order, one settlement per intent, results sent back by id', async () => {
    writeFileSync(join(scripted.dirs.root, 'notes.txt'), 'first line\nsecond line\n');
    scripted.server.push(
      { toolCalls: [{ id: 'call_read', name: 'read_file', arguments: '{"path":"notes.txt"}', fragments: 3 }] },
      { toolCalls: [{ id: 'call_list', name: 'list_dir', arguments: '{"path":"."}' }] },
      { text: ['The file ', 'has two lines.'] },
    );
    const { agent, store } = scripted.agent();
    const log = eventLog();

    const result = await agent.runTurn('what is in notes.txt?', new AbortController().signal, log.emit);

    expect(result).toEqual({ outcome: 'done', text: 'The file has two lines.' });
    expect(entriesOf(store).map((e) => e.type)).toEqual([
      'user',
      'assistant',
      'tool_intent',
      'tool_result',
      'assistant',
      'tool_intent',
      'tool_result',
      'assistant',
    ]);
    for (const callId of ['call_read', 'call_list']) {
      expect(entriesOfType(store, 'tool_intent').filter((e) => e.payload.callId === callId)).toHaveLength(1);
      expect(resultsFor(store, callId)).toHaveLength(1);
      expect(resultsFor(store, callId)[0]!.payload.outcome).toBe('ok');
    }
    expect(store.registers.entries(NS.pending)).toEqual([]);
    expect(store.registers.entries(NS.opState)).toEqual([]);
    expect(machineState(store).pc).toBe('Final');

    expect(chatRequests(scripted.server)).toHaveLength(3);
    const [, second, third] = chatRequests(scripted.server);
    const [read] = toolMessages(second);
    expect(read![0]).toBe('call_read');
    expect(read![1]).toContain('first line');
    const secondAssistant = second!.body!.messages!.find((m) => m.role === 'assistant') as {
      tool_calls?: { id: string; function: { name: string } }[];
    };
    expect(secondAssistant.tool_calls?.map((c) => [c.id, c.function.name])).toEqual([['call_read', 'read_file']]);
    expect(toolMessages(third).map(([id]) => id)).toEqual(['call_read', 'call_list']);
    expect(toolMessages(third)[1]![1]).toContain('notes.txt');
    expect(log.events.filter((e) => e.type === 'tool-result').map((e) => (e as { callId: string }).callId)).toEqual([
      'call_read',
      'call_list',
    ]);
    store.close();
  });

  it('turns invalid JSON and wrongly typed arguments into error results the model reads, and goes on', async () => {
    scripted.server.push(
      { toolCalls: [{ id: 'call_bad_json', name: 'read_file', arguments: '{"path": "notes.txt"' }] },
      { toolCalls: [{ id: 'call_bad_type', name: 'read_file', arguments: '{"path": 42}' }] },
      { toolCalls: [{ id: 'call_unknown', name: 'launch_rocket', arguments: '{}' }] },
      { text: 'giving up on that' },
    );
    const { agent, store } = scripted.agent();

    const result = await agent.runTurn('read it', new AbortController().signal, () => {});

    expect(result.outcome).toBe('done');
    expect(chatRequests(scripted.server)).toHaveLength(4);
    const [, afterJson, afterType, afterUnknown] = chatRequests(scripted.server);
    expect(toolMessages(afterJson)).toEqual([['call_bad_json', expect.stringMatching(/not valid JSON/)]]);
    expect(toolMessages(afterType).at(-1)).toEqual(['call_bad_type', expect.stringMatching(/"path".*string/s)]);
    expect(toolMessages(afterUnknown).at(-1)).toEqual([
      'call_unknown',
      expect.stringMatching(/Unknown tool "launch_rocket"/),
    ]);
    for (const id of ['call_bad_json', 'call_bad_type', 'call_unknown']) {
      expect(resultsFor(store, id).map((e) => e.payload.outcome)).toEqual(['error']);
    }
    expect(entriesOfType(store, 'tool_intent')).toEqual([]);
    store.close();
  });

  it('caps a 1 MB tool output at 32 KiB in the entry and in the request', async () => {
    const big = `${'x'.repeat(999)}\n`.repeat(1000);
    writeFileSync(join(scripted.dirs.root, 'big.txt'), big);
    scripted.server.push(
      {
        toolCalls: [
          {
            id: 'call_bash_big',
            name: 'bash',
            arguments: JSON.stringify({ command: "head -c 1000000 /dev/zero | tr '\\0' 'a'" }),
          },
        ],
      },
      { toolCalls: [{ id: 'call_read_big', name: 'read_file', arguments: '{"path":"big.txt"}' }] },
      { text: 'done' },
    );
    const { agent, store } = scripted.agent({ policy: { rules: ['bash:head *'] } });

    expect((await agent.runTurn('make noise', new AbortController().signal, () => {})).outcome).toBe('done');

    for (const id of ['call_bash_big', 'call_read_big']) {
      const [entry] = resultsFor(store, id);
      expect(entry!.payload.outcome).toBe('ok');
      expect(Buffer.byteLength(entry!.payload.content)).toBeLessThanOrEqual(MODEL_OUTPUT_CAP_BYTES);
      expect(Buffer.byteLength(entry!.payload.content)).toBeGreaterThan(MODEL_OUTPUT_CAP_BYTES / 2);
    }
    expect(resultsFor(store, 'call_bash_big')[0]!.payload.content).toMatch(/elided/);
    const sent = toolMessages(chatRequests(scripted.server)[2]);
    expect(sent.map(([id]) => id)).toEqual(['call_bash_big', 'call_read_big']);
    for (const [, content] of sent) expect(Buffer.byteLength(content)).toBeLessThanOrEqual(MODEL_OUTPUT_CAP_BYTES);
    store.close();
  });

  it('turns path escapes (.. and a symlink out of the workspace) into error results', async () => {
    writeFileSync(join(scripted.dirs.outside, 'secret.txt'), 'outside secret');
    symlinkSync(scripted.dirs.outside, join(scripted.dirs.root, 'door'));
    scripted.server.push(
      { toolCalls: [{ id: 'call_dots', name: 'read_file', arguments: '{"path":"../../etc/passwd"}' }] },
      { toolCalls: [{ id: 'call_link', name: 'read_file', arguments: '{"path":"door/secret.txt"}' }] },
      { toolCalls: [{ id: 'call_list_link', name: 'list_dir', arguments: '{"path":"door"}' }] },
      { text: 'cannot' },
    );
    const { agent, store } = scripted.agent();

    expect((await agent.runTurn('read secrets', new AbortController().signal, () => {})).outcome).toBe('done');

    for (const id of ['call_dots', 'call_link', 'call_list_link']) {
      const [entry] = resultsFor(store, id);
      expect(entry!.payload.outcome).toBe('error');
      expect(entry!.payload.content).toMatch(/outside the workspace/i);
    }
    const everything = JSON.stringify(chatRequests(scripted.server).map((r) => r.body));
    expect(everything).not.toContain('outside secret');
    expect(everything).not.toContain('root:x:0');
    store.close();
  });
});
