import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../../../src/core/clock';
import { readNdjson } from '../../../../src/core/provider/ollama/ndjson-reader';
import { OllamaProvider } from '../../../../src/core/provider/ollama/ollama-provider';
import type { ProviderError } from '../../../../src/core/provider/errors';

function bodyOf(...pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function lines(...pieces: string[]): Promise<unknown[]> {
  const seen: unknown[] = [];
  await readNdjson(bodyOf(...pieces), new AbortController().signal, (value) => seen.push(value));
  return seen;
}

describe('an NDJSON body', () => {
  it('gives each line once whole: split across reads, CRLF endings, blank lines, a last line without newline, a character cut between reads', async () => {
    const euro = new TextEncoder().encode('{"t":"€"}\n');
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(euro.slice(0, 7));
        controller.enqueue(euro.slice(7));
        controller.close();
      },
    });
    const seen: unknown[] = [];
    await readNdjson(cut, new AbortController().signal, (value) => seen.push(value));
    expect(seen).toEqual([{ t: '€' }]);
    expect(await lines('{"a":', '1}\r\n\n{"b":2}\n', '\n{"c":3}')).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
  });

  it('fails on a line that is not JSON, and at once when the signal aborts', async () => {
    await expect(lines('{"a":1}\n<html>\n')).rejects.toThrow(SyntaxError);
    const controller = new AbortController();
    const never = new ReadableStream<Uint8Array>({ start() {} });
    const reading = readNdjson(never, controller.signal, () => undefined);
    controller.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('a redirect in place of Ollama', () => {
  it('is not followed: the conversation never reaches where it points', async () => {
    let reachedElsewhere = false;
    const elsewhere = createServer((_req, res) => {
      reachedElsewhere = true;
      res.end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/api/chat`;
    const redirecting = createServer((_req, res) => {
      res.writeHead(307, { location: target });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const provider = new OllamaProvider({
        baseURL: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`,
        random: seededRandom(1),
        clock: systemClock,
        retry: { maxAttempts: 1 },
      });
      const call = provider.complete(
        {
          model: 'llama3.1',
          messages: [{ role: 'user', content: 'secret' }],
          tools: [],
          signal: new AbortController().signal,
          contextWindowTokens: 4096,
        },
        () => undefined,
      );
      await expect(call).rejects.toMatchObject({ kind: 'bad_request', status: 307 });
      expect(((await call.catch((e: unknown) => e)) as ProviderError).hint).toContain('redirects');
      expect(reachedElsewhere).toBe(false);
    } finally {
      redirecting.close();
      elsewhere.close();
    }
  });
});
