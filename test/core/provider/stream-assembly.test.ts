import { describe, expect, it } from 'vitest';
import { parseUsage, StreamAssembly, toFinishReason } from '../../../src/core/provider/openai-chat/openai-wire';

const chunk = (delta: object, finish_reason: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason }],
});

describe('StreamAssembly', () => {
  it('opens a new call when a server reuses index 0 with a new id', () => {
    const assembly = new StreamAssembly((index) => `invented_${index}`);
    assembly.add(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'one', arguments: '{}' } }] }));
    const events = assembly.add(
      chunk({ tool_calls: [{ index: 0, id: 'b', function: { name: 'two', arguments: '{"x":1}' } }] }),
    );
    assembly.add(chunk({}, 'tool_calls'));

    expect(events).toEqual([{ type: 'tool_call', index: 1, id: 'b', name: 'two', argumentsDelta: '{"x":1}' }]);
    expect(assembly.result('m').toolCalls).toEqual([
      { id: 'a', name: 'one', arguments: '{}' },
      { id: 'b', name: 'two', arguments: '{"x":1}' },
    ]);
  });

  it('places fragments without an index by their position and invents missing ids', () => {
    const assembly = new StreamAssembly((index) => `invented_${index}`);
    assembly.add(
      chunk({
        tool_calls: [{ function: { name: 'a', arguments: '{"p":' } }, { function: { name: 'b', arguments: '[' } }],
      }),
    );
    assembly.add(
      chunk({ tool_calls: [{ function: { arguments: '1}' } }, { function: { arguments: ']' } }] }, 'tool_calls'),
    );

    expect(assembly.result('m').toolCalls).toEqual([
      { id: 'invented_0', name: 'a', arguments: '{"p":1}', idFixed: 'missing' },
      { id: 'invented_1', name: 'b', arguments: '[]', idFixed: 'missing' },
    ]);
  });

  it('makes a repeated id unique and records why, and reads a legacy function_call as one call', () => {
    const assembly = new StreamAssembly((index) => `invented_${index}`);
    assembly.add(chunk({ tool_calls: [{ index: 0, id: 'same', function: { name: 'a', arguments: '{}' } }] }));
    assembly.add(chunk({ tool_calls: [{ index: 1, id: 'same', function: { name: 'b', arguments: '{}' } }] }));
    assembly.add(chunk({ function_call: { name: 'c', arguments: '{"x"' } }));
    assembly.add(chunk({ function_call: { arguments: ':1}' } }, 'function_call'));
    expect(assembly.result('m').toolCalls).toEqual([
      { id: 'same', name: 'a', arguments: '{}' },
      { id: 'invented_1', name: 'b', arguments: '{}', idFixed: 'duplicate' },
      { id: 'invented_2', name: 'c', arguments: '{"x":1}', idFixed: 'missing', legacy: true },
    ]);
    expect(assembly.result('m').finishReason).toBe('tool_calls');
  });

  it('keeps a refusal apart from the text, and a reply with no finish reason by what it carries', () => {
    const assembly = new StreamAssembly(() => 'x');
    expect(assembly.add(chunk({ content: null, refusal: 'no, ' }))).toEqual([{ type: 'refusal', delta: 'no, ' }]);
    assembly.add(chunk({ refusal: 'sorry' }));
    expect(assembly.result('m')).toMatchObject({ text: '', refusal: 'no, sorry', finishReason: 'stop' });
    const calls = new StreamAssembly(() => 'x');
    calls.add(chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'a', arguments: '{}' } }] }));
    expect(calls.result('m').finishReason).toBe('tool_calls');
  });

  it('ignores choices other than the first, and chunks with no choices', () => {
    const assembly = new StreamAssembly(() => 'x');
    assembly.add({ choices: [] });
    assembly.add({
      choices: [
        { index: 1, delta: { content: 'other' } },
        { index: 0, delta: { content: 'mine' } },
      ],
    });
    expect(assembly.text).toBe('mine');
    expect(assembly.finishReason).toBeUndefined();
  });

  it('says tool_calls when a server finishes calls with "stop"', () => {
    expect(toFinishReason('stop', true)).toBe('tool_calls');
    expect(toFinishReason('stop', false)).toBe('stop');
    expect(toFinishReason('length', false)).toBe('length');
    expect(toFinishReason('content_filter', false)).toBe('content_filter');
    expect(toFinishReason('weird', false)).toBe('other');
  });
});

describe('parseUsage', () => {
  it('counts Anthropic-style usage without prompt_tokens as all prompt tokens', () => {
    expect(
      parseUsage({
        input_tokens: 100,
        output_tokens: 7,
        cache_read_input_tokens: 900,
        cache_creation_input_tokens: 50,
      }),
    ).toEqual({
      inputTokens: 1050,
      outputTokens: 7,
      cachedInputTokens: 900,
      cacheWriteTokens: 50,
    });
  });

  it('returns null for no usage and ignores a cost that is not a number', () => {
    expect(parseUsage(null)).toBeNull();
    expect(parseUsage(undefined)).toBeNull();
    expect(
      parseUsage({ prompt_tokens: 1, completion_tokens: 2, cost: 'free' as unknown as number }),
    ).not.toHaveProperty('serverCostUsdMicros');
  });
});
