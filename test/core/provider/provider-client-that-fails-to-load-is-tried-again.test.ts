import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { ProviderError } from '../../../src/core/provider/errors';
import { ProviderOnUse } from '../../../src/core/provider/provider-on-use';

/** What Node throws for a chunk of the build that is not on disk. */
function missingChunk(): Error {
  return Object.assign(new Error("Cannot find module '/opt/tole/dist/chunks/openai-provider-X.js' imported from x"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

describe('the provider client loaded at the first call', () => {
  it('fails to load as a ProviderError that says what to do, and the next call loads it again', async () => {
    let loads = 0;
    const provider = new ProviderOnUse(
      'openai-chat',
      { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-test', random: seededRandom(1), clock: systemClock },
      async () => {
        loads++;
        if (loads === 1) throw missingChunk();
        return import('../../../src/core/provider/openai-chat/openai-chat-kind');
      },
    );
    const request = { model: '', messages: [], tools: [], signal: new AbortController().signal };

    const first = provider.complete(request, () => {});
    await expect(first).rejects.toBeInstanceOf(ProviderError);
    await expect(first).rejects.toMatchObject({
      kind: 'bad_request',
      message: expect.stringContaining('openai-provider-X.js'),
      hint: expect.stringMatching(/install of tole is incomplete.*npm run build/),
    });

    // The failed load is not kept: this call reaches the real client (which refuses a call without a model).
    const second = provider.complete(request, () => {});
    await expect(second).rejects.toMatchObject({ kind: 'bad_request', hint: expect.stringContaining('--model') });
    expect(loads).toBe(2);
  });

  it("prepare() loads the client ahead of the call, once; a prepare that fails to load is not the call's failure", async () => {
    let loads = 0;
    const provider = new ProviderOnUse(
      'openai-chat',
      { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-test', random: seededRandom(1), clock: systemClock },
      async () => {
        loads++;
        if (loads === 1) throw missingChunk();
        return import('../../../src/core/provider/openai-chat/openai-chat-kind');
      },
    );
    provider.prepare();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(loads).toBe(1);
    // The failed load was dropped quietly; the next prepare loads again, and the call finds it loaded.
    provider.prepare();
    provider.prepare();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(loads).toBe(2);
    const request = { model: '', messages: [], tools: [], signal: new AbortController().signal };
    await expect(provider.complete(request, () => {})).rejects.toMatchObject({
      hint: expect.stringContaining('--model'),
    });
    expect(loads).toBe(2);
  });
});
