/**
 * Token counts use the model's own tokenizer where tole knows it (OpenAI families, through
 * gpt-tokenizer, loaded on first need) and characters / 4 for every other model.
 */
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { tokenCounterFor } from '../../src/cli/token-counters';
import type { ChatMessage } from '../../src/core/provider/provider';
import { estimateTokens } from '../../src/core/session/compaction';
import { CHARACTER_ESTIMATE, encodingOf } from '../../src/core/session/token-counter';

const PROMPT = 'Refactor `parseArgs` in src/cli/args.ts: 3 flags, ünïcödé, 日本語, and emoji 🚀 — then run the tests.';

describe('token counters', () => {
  it('names the encoding of each OpenAI family and none for other models', () => {
    for (const model of [
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4.1',
      'openai/gpt-4.1-nano',
      'gpt-5',
      'o1',
      'o3-mini',
      'o4-mini',
    ])
      expect(encodingOf(model), model).toBe('o200k_base');
    for (const model of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo']) expect(encodingOf(model), model).toBe('cl100k_base');
    for (const model of ['claude-sonnet-4', 'llama3.1:8b', 'gemini-2.5-pro', 'tole-test-model', 'o1x', 'gpt-40'])
      expect(encodingOf(model), model).toBeNull();
  });

  it('counts a gpt-4.1 prompt exactly as gpt-tokenizer does', async () => {
    const counter = await tokenCounterFor('gpt-4.1');
    expect(counter.method).toBe('tokens counted with o200k_base');
    expect(counter.count(PROMPT)).toBe(o200k(PROMPT));
    expect(counter.count(PROMPT)).not.toBe(PROMPT.length / 4);
    expect(await tokenCounterFor('gpt-4.1')).toBe(counter);
    const messages: ChatMessage[] = [{ role: 'user', content: PROMPT }];
    expect(estimateTokens(messages, [], counter)).toBe(o200k(PROMPT) + 2);
  });

  it('counts gpt-4 with cl100k_base', async () => {
    const counter = await tokenCounterFor('gpt-4');
    expect(counter.method).toBe('tokens counted with cl100k_base');
    expect(counter.count(PROMPT)).toBe(cl100k(PROMPT));
  });

  it('counts special-token text in a prompt as text instead of throwing', async () => {
    const counter = await tokenCounterFor('gpt-4o');
    const text = 'a file holding <|endoftext|> and <|im_start|>';
    expect(counter.count(text)).toBeGreaterThan(5);
  });

  it('falls back to characters / 4 for another model', async () => {
    expect(await tokenCounterFor('claude-sonnet-4')).toBe(CHARACTER_ESTIMATE);
    expect(await tokenCounterFor('llama3.1:8b')).toBe(CHARACTER_ESTIMATE);
    const messages: ChatMessage[] = [{ role: 'user', content: 'x'.repeat(400) }];
    expect(estimateTokens(messages, [], CHARACTER_ESTIMATE)).toBe(102);
    expect(estimateTokens(messages)).toBe(102);
  });
});
