import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/core/provider/errors';
import { chatRequests } from '../../support/agent-fixtures';
import { startChatServer, type ChatServer } from '../../support/chat-server';
import { makeProvider, recordingSleep, userRequest } from './harness';

let provider: ChatServer;
let elsewhere: ChatServer;

beforeAll(async () => {
  provider = await startChatServer();
  elsewhere = await startChatServer({ defaultReply: { text: 'the conversation reached another host' } });
});

afterAll(async () => {
  await provider.close();
  await elsewhere.close();
});

describe('a redirect from the provider', () => {
  it('is not followed: the conversation never reaches the other host, and the error says why and what to do', async () => {
    provider.push({
      error: { status: 307, headers: { location: `${elsewhere.url}/chat/completions` }, body: 'moved' },
    });
    const p = makeProvider(provider.url, { sleep: recordingSleep().sleep });
    const error = await p.complete(userRequest('the secret plan'), () => {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).hint).toContain(`redirects to ${elsewhere.url}/chat/completions`);
    expect((error as ProviderError).hint).toContain('--base-url');
    expect(chatRequests(elsewhere)).toEqual([]);
    expect(chatRequests(provider)).toHaveLength(1);
  });
});
