/**
 * The event stream of a Chat Completions answer, read by tole (not the client's iterator), as the
 * client read it: chunks split anywhere in the bytes (inside a line, inside a UTF-8 character)
 * give the same reply; SSE comments and events after `[DONE]` are ignored; a payload with an
 * `error` field is the server's error, and a payload that is not JSON fails the attempt.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import { ProviderError } from '../../../src/core/provider/errors';
import { OpenAIProvider } from '../../../src/core/provider/openai-chat/openai-provider';

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

/** A server that answers every request with `parts`, written one by one with a short pause between. */
async function serveStream(parts: readonly (string | Buffer)[]): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const part of parts) {
        res.write(part);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      res.end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function provider(baseURL: string): OpenAIProvider {
  return new OpenAIProvider({
    baseURL,
    apiKey: 'sk-test',
    random: seededRandom(5),
    clock: systemClock,
    retry: { maxAttempts: 1 },
  });
}

const ask = (p: OpenAIProvider) =>
  p.complete(
    { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [], signal: new AbortController().signal },
    () => {},
  );

describe('the event stream, read by tole', () => {
  it('bytes cut anywhere (in a line, in a character) give the same reply; comments and events after [DONE] are ignored', async () => {
    const whole = Buffer.from(
      [
        ': keep-alive\n\n',
        chunk({ role: 'assistant', content: 'héllo ' }),
        chunk({ content: 'wörld ✓' }),
        chunk({}, 'stop'),
        'data: [DONE]\n\n',
        chunk({ content: ' after the end' }),
      ].join(''),
    );
    const cuts: Buffer[] = [];
    for (let at = 0; at < whole.length; at += 7) cuts.push(whole.subarray(at, at + 7));
    const result = await ask(provider(await serveStream(cuts)));
    expect(result.text).toBe('héllo wörld ✓');
    expect(result.finishReason).toBe('stop');
  });

  it('a server that ends with [DONE] and never sends finish_reason: the answer stands; cut before it: a dropped stream', async () => {
    const done = await ask(provider(await serveStream([chunk({ content: 'yes' }), 'data: [DONE]\n\n'])));
    expect(done.text).toBe('yes');
    const cut = ask(provider(await serveStream([chunk({ content: 'ye' })])));
    await expect(cut).rejects.toMatchObject({ kind: 'stream_dropped' });
  });

  it('an error payload in the stream is the server error; a payload that is not JSON fails the attempt', async () => {
    const withError = ask(
      provider(
        await serveStream([
          chunk({ content: 'part' }),
          `data: ${JSON.stringify({ error: { message: 'the model crashed', type: 'server_error' } })}\n\n`,
        ]),
      ),
    );
    await expect(withError).rejects.toBeInstanceOf(ProviderError);
    await expect(withError).rejects.toMatchObject({ message: expect.stringContaining('the model crashed') });
    const garbled = ask(provider(await serveStream([chunk({ content: 'part' }), 'data: {not json\n\n'])));
    await expect(garbled).rejects.toBeInstanceOf(ProviderError);
  });
});
