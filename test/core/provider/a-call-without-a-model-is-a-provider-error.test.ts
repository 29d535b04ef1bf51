import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { ProviderError } from '../../../src/core/provider/errors';
import { OpenAIProvider } from '../../../src/core/provider/openai-chat/openai-provider';

describe('a completion with no model named', () => {
  it('fails as a ProviderError the turn loop settles (bad_request, saying how to name one), not a bare Error', async () => {
    const provider = new OpenAIProvider({
      baseURL: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-test',
      random: seededRandom(1),
      clock: systemClock,
    });
    const call = provider.complete(
      { model: '', messages: [], tools: [], signal: new AbortController().signal },
      () => {},
    );
    await expect(call).rejects.toBeInstanceOf(ProviderError);
    await expect(call).rejects.toMatchObject({ kind: 'bad_request', hint: expect.stringContaining('--model') });
  });
});
