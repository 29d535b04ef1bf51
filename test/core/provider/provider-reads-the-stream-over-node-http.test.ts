/**
 * The provider's transport (src/core/provider/http-fetch.ts): requests go out over node:http and
 * an event stream is read from the socket's own stream, not through Node's fetch. Against real
 * local servers: the stream's bytes cut between network reads (inside a UTF-8 character, inside
 * an event) give the same reply; HTTP errors keep their status, body and Retry-After; an abort or
 * the idle limit closes the connection; a finished stream leaves its connection for the next call.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../src/core/clock';
import type { ProviderError } from '../../../src/core/provider/errors';
import { eventStreamBody, httpFetch } from '../../../src/core/provider/http-fetch';
import { OpenAIProvider, type OpenAIProviderOptions } from '../../../src/core/provider/openai-chat/openai-provider';
import { startChatServer, type ChatServer } from '../../support/chat-server';
import { recordingSleep, run, textOf, userRequest } from './harness';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function chatServer(): Promise<ChatServer> {
  const server = await startChatServer();
  cleanups.push(() => server.close());
  return server;
}

interface RawServer {
  readonly url: string;
  /** The server's keep-alive timeout (ms; 0: idle connections are never closed by the server). */
  keepAliveTimeout: number;
  /** Connections accepted so far. */
  connections: number;
  /** Resolves when a connection closes (the next one after the call). */
  nextClose(): Promise<void>;
}

/** A server whose chat answers are written by `answer`, counting connections and their closes. */
async function rawServer(answer: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const closeWaiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => void answer(req, res).catch(() => res.destroy()));
  });
  const state: RawServer = {
    url: '',
    connections: 0,
    get keepAliveTimeout() {
      return server.keepAliveTimeout;
    },
    set keepAliveTimeout(ms: number) {
      server.keepAliveTimeout = ms;
    },
    nextClose: () => new Promise<void>((resolve) => closeWaiters.push(resolve)),
  };
  server.on('connection', (socket) => {
    state.connections += 1;
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      for (const resolve of closeWaiters.splice(0)) resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return Object.assign(state, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes each part as a network read of its own (a pause between, no Nagle). */
function writeParts(parts: readonly (string | Buffer)[]) {
  return async (_req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    for (const part of parts) {
      await pause(15);
      if (res.destroyed) return;
      res.write(part);
    }
    res.end();
  };
}

function event(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function provider(baseURL: string, overrides: Partial<OpenAIProviderOptions> = {}): OpenAIProvider {
  return new OpenAIProvider({
    baseURL,
    apiKey: 'sk-test',
    random: seededRandom(3),
    clock: systemClock,
    retry: { maxAttempts: 1 },
    ...overrides,
  });
}

describe('the provider over node:http', () => {
  it('sends the request with node:http (no accept-encoding, a content-length) and sets the event stream aside unread', async () => {
    const server = await chatServer();
    const ok = await run(provider(server.url), userRequest('hi'));
    expect(ok.result?.text).toBe('echo: hi');
    const headers = server.requests[0]!.headers;
    expect(headers['accept-encoding']).toBeUndefined();
    expect(Number(headers['content-length'])).toBeGreaterThan(0);
    expect(headers.authorization).toBe('Bearer sk-test');

    const response = await httpFetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(200);
    expect(response.body).toBeNull();
    const body = eventStreamBody(response);
    expect(body).toBeDefined();
    let text = '';
    for await (const part of body!) text += String(part);
    expect(text).toContain('data: [DONE]');
  });

  it('a UTF-8 character cut between two network reads, and an event cut between three, give the same reply', async () => {
    const first = Buffer.from(event({ role: 'assistant', content: 'a→b' }));
    const at = first.indexOf(Buffer.from('→')) + 1; // inside the three bytes of →
    const second = event({ content: ' ✓ end' });
    const server = await rawServer(
      writeParts([
        first.subarray(0, at),
        first.subarray(at),
        second.slice(0, 9),
        second.slice(9, 20),
        second.slice(20),
        event({}, 'stop'),
        'data: [DONE]\n\n',
      ]),
    );
    const { result, events } = await run(provider(server.url), userRequest('x'));
    expect(result?.text).toBe('a→b ✓ end');
    expect(textOf(events)).toBe('a→b ✓ end');
    expect(result?.finishReason).toBe('stop');
  });

  it('an error event mid-stream is the server error; a stream cut with no [DONE] is dropped', async () => {
    const failing = await rawServer(
      writeParts([
        event({ content: 'part' }),
        `data: ${JSON.stringify({ error: { message: 'the model crashed', code: 503 } })}\n\n`,
      ]),
    );
    const failed = await run(provider(failing.url), userRequest('x'));
    expect((failed.error as ProviderError).message).toContain('the model crashed');
    expect((failed.error as ProviderError).status).toBe(503);

    const cut = await rawServer(async (req, res) => {
      await writeParts([event({ content: 'half' })])(req, res).catch(() => undefined);
      res.socket?.destroy();
    });
    const dropped = await run(provider(cut.url), userRequest('x'));
    expect((dropped.error as ProviderError).kind).toBe('stream_dropped');
  });

  it('a byte-order mark before the first event does not lose that event', async () => {
    const server = await rawServer(
      writeParts([
        '\ufeff',
        event({ role: 'assistant', content: 'first' }),
        event({ content: ' second' }, 'stop'),
        'data: [DONE]\n\n',
      ]),
    );
    const cut = await run(provider(server.url), userRequest('x'));
    expect(cut.result?.text).toBe('first second');
    const whole = await rawServer(writeParts([`\ufeff${event({ content: 'first' }, 'stop')}data: [DONE]\n\n`]));
    expect((await run(provider(whole.url), userRequest('x'))).result?.text).toBe('first');
  });

  it('cancelling an unread error body closes its connection without waiting for the signal', async () => {
    const server = await rawServer(async (_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"no such path"}');
    });
    // No keep-alive timer on the server: nothing but the client closes the idle connection.
    server.keepAliveTimeout = 0;
    const controller = new AbortController();
    cleanups.push(async () => controller.abort());
    const closed = server.nextClose();
    const response = await httpFetch(`${server.url}/props`, { signal: controller.signal });
    expect(response.status).toBe(404);
    await response.body?.cancel();
    // Without the destroy the socket stays held until the signal fires, after the test: the wait
    // below then ends only at the test's timeout, and fails.
    await closed;
  });

  it('a 429 keeps its Retry-After and body; a 500 is retried; both then stream', async () => {
    const server = await chatServer();
    server.push(
      {
        error: {
          status: 429,
          headers: { 'retry-after': '3' },
          body: { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } },
        },
      },
      { error: { status: 500, headers: { 'retry-after': '1' } } },
      { text: 'at last' },
    );
    const { sleep, waitsMs } = recordingSleep();
    const { attempts, result } = await run(
      provider(server.url, { sleep, retry: { maxAttempts: 3, jitter: 'none' } }),
      userRequest('x'),
    );
    expect(attempts.map((report) => report.outcome)).toEqual(['rate_limit', 'transient', 'ok']);
    expect(attempts[0]!.error).toContain('Rate limit reached');
    expect(waitsMs[0]).toBe(3000);
    expect(result?.text).toBe('at last');
  });

  it('an abort mid-stream closes the connection at once', async () => {
    const server = await rawServer(writeParts(Array.from({ length: 200 }, (_, i) => event({ content: `w${i} ` }))));
    const controller = new AbortController();
    const closed = server.nextClose();
    let texts = 0;
    const outcome = await provider(server.url)
      .complete(userRequest('x', { signal: controller.signal }), (e) => {
        if (e.type === 'text' && ++texts === 2) controller.abort();
      })
      .catch((error: unknown) => error as ProviderError);
    expect((outcome as ProviderError).kind).toBe('aborted');
    await closed;
  });

  it('the idle limit closes a silent connection', async () => {
    const server = await rawServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event({ content: 'then nothing' }));
      await new Promise((resolve) => res.on('close', resolve));
    });
    const closed = server.nextClose();
    const { error } = await run(provider(server.url, { streamIdleTimeoutMs: 100 }), userRequest('x'));
    expect((error as ProviderError).kind).toBe('stream_dropped');
    expect((error as ProviderError).message).toMatch(/no data for 100 ms/);
    await closed;
  });

  it('a finished stream leaves its connection open for the next call', async () => {
    const server = await rawServer(writeParts([event({ content: 'one' }, 'stop'), 'data: [DONE]\n\n']));
    const p = provider(server.url);
    expect((await run(p, userRequest('a'))).result?.text).toBe('one');
    expect((await run(p, userRequest('b'))).result?.text).toBe('one');
    expect(server.connections).toBe(1);
  });

  it('an https base URL is spoken to with TLS: a server that cannot finish the handshake is a connection error', async () => {
    let firstBytes: Buffer | undefined;
    const tcp = createTcpServer((socket) => {
      socket.once('data', (data: Buffer) => {
        firstBytes = data;
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => tcp.close(() => resolve())));
    const url = `https://127.0.0.1:${(tcp.address() as AddressInfo).port}/v1`;
    const { error } = await run(provider(url), userRequest('x'));
    expect((error as ProviderError).kind).toBe('transient');
    expect((error as ProviderError).message).toContain(`could not reach ${url}`);
    // A TLS record of type handshake (22), version 3.x: a ClientHello, not a plain HTTP request.
    expect(firstBytes?.[0]).toBe(0x16);
    expect(firstBytes?.[1]).toBe(0x03);
  });
});
