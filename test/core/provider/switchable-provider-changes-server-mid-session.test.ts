import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { ProviderError } from '../../../src/core/provider/errors';
import { OpenAIProvider } from '../../../src/core/provider/openai-chat/openai-provider';
import type { CompletionEvent } from '../../../src/core/provider/provider';
import { SwitchableProvider } from '../../../src/core/provider/switchable-provider';
import { startChatServer, type ChatServer } from '../../support/chat-server';

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function request(model: string) {
  return {
    model,
    messages: [{ role: 'user' as const, content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
  };
}

function openai(url: string): OpenAIProvider {
  return new OpenAIProvider({ baseURL: url, random: seededRandom(1), clock: systemClock, retry: { maxAttempts: 1 } });
}

describe('SwitchableProvider', () => {
  it('empty, a call fails as an auth error that says what to do, and nothing is sent', async () => {
    const provider = new SwitchableProvider(null);
    expect(provider.usable).toBe(false);
    expect(provider.name).toBe('none');
    const events: CompletionEvent[] = [];
    const failure = await provider.complete(request('m'), (e) => events.push(e)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ kind: 'auth' });
    expect((failure as ProviderError).hint).toContain('OPENAI_API_KEY');
    expect(events).toEqual([]);
    expect(await provider.listModels()).toEqual([]);
  });

  it('use switches where the next call goes, and its model list follows', async () => {
    const first = await startChatServer({
      defaultReply: { text: 'from the first' },
      models: [{ id: 'one', context_length: 4096 }],
    });
    const second = await startChatServer({
      defaultReply: { text: 'from the second' },
      models: [{ id: 'two', context_length: 8192 }],
    });
    servers.push(first, second);
    const provider = new SwitchableProvider(openai(first.url), 'first');
    expect((await provider.complete(request('one'), () => {})).text).toBe('from the first');
    expect((await provider.listModels()).map((m) => m.id)).toEqual(['one']);

    provider.use(openai(second.url), 'Ollama');
    expect(provider.name).toBe('Ollama');
    expect((await provider.complete(request('two'), () => {})).text).toBe('from the second');
    expect(await provider.listModels()).toEqual([{ id: 'two', contextWindowTokens: 8192 }]);
    expect(first.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
  });
});
