import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { getModelList, MODEL_LIST_MAX_BYTES } from '../../../src/core/provider/get-model-list';
import { ProviderOnUse } from '../../../src/core/provider/provider-on-use';
import type { ApiKind } from '../../../src/core/provider/registry';
import { startAnthropicServer } from '../../support/anthropic-server';
import { startChatServer } from '../../support/chat-server';
import { GEMINI_TEST_KEY, startGeminiServer } from '../../support/gemini-server';
import { startOllamaServer } from '../../support/ollama-server';

function provider(kind: ApiKind, baseURL: string, apiKey?: string) {
  return new ProviderOnUse(kind, {
    baseURL,
    ...(apiKey ? { apiKey } : {}),
    random: seededRandom(1),
    clock: systemClock,
    sleep: async () => {},
    retry: { jitter: 'none', maxAttempts: 1 },
  });
}

describe("each kind lists its server's models", () => {
  it('anthropic-messages: every page of GET /v1/models, with the documented window', async () => {
    const ids = Array.from({ length: 1_500 }, (_, i) => `claude-test-${i}`);
    const server = await startAnthropicServer({ apiKey: 'sk-ant-test', models: ids });
    try {
      const models = await provider('anthropic-messages', server.url, 'sk-ant-test').listModels();
      expect(models.map((m) => m.id)).toEqual(ids);
      expect(models[0]).toEqual({ id: 'claude-test-0', contextWindowTokens: 200_000 });
      await expect(provider('anthropic-messages', `${server.url}/v1`, 'wrong').listModels()).rejects.toThrow(/401/);
    } finally {
      await server.close();
    }
  });

  it('ollama: the pulled models of GET /api/tags', async () => {
    const server = await startOllamaServer({ models: ['llama3.1', 'qwen2.5-coder'] });
    try {
      const models = await provider('ollama', server.url).listModels();
      expect(models).toEqual([{ id: 'llama3.1:latest' }, { id: 'qwen2.5-coder:latest' }]);
    } finally {
      await server.close();
    }
  });

  it('gemini: GET models page by page; openai-chat: GET /v1/models', async () => {
    const names = Array.from({ length: 1_200 }, (_, i) => `gemini-test-${i}`);
    const gemini = await startGeminiServer({ models: names });
    const chat = await startChatServer({ models: [{ id: 'local-coder', object: 'model' }] });
    try {
      const listed = await provider('gemini', gemini.url, GEMINI_TEST_KEY).listModels();
      expect(listed.map((m) => m.id)).toEqual(names);
      expect((await provider('openai-chat', chat.url, 'k').listModels()).map((m) => m.id)).toEqual(['local-coder']);
    } finally {
      await gemini.close();
      await chat.close();
    }
  });

  it('a list answer larger than the limit is refused and no longer read, whatever it holds', async () => {
    const chunk = 'x'.repeat(1024 * 1024);
    const chunks = Math.ceil(MODEL_LIST_MAX_BYTES / chunk.length) * 4;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const encoder = new TextEncoder();
        if (pulled === 0) controller.enqueue(encoder.encode('{"data":[{"id":"m"}],"pad":"'));
        else if (pulled <= chunks) controller.enqueue(encoder.encode(chunk));
        else {
          controller.enqueue(encoder.encode('"}'));
          controller.close();
        }
        pulled++;
      },
    });
    const fetch = async (): Promise<Response> => new Response(body, { status: 200 });

    await expect(getModelList('http://models.test/v1/models', {}, { fetch })).rejects.toThrow(/more than 8 MB/);
    expect(pulled).toBeLessThan(chunks / 2);
  });
});
