/**
 * The CPU a streamed reply costs the provider, from the socket to `onChunk`: 2,000 chunks 1 ms
 * apart (one network read each, as a paced model sends them) from test/support/chat-server.ts
 * running as a process of its own, so that this process's CPU (`process.cpuUsage`) is the
 * client's alone. tole's provider (node:http, http-fetch.ts) beside the same provider on Node's
 * fetch (undici and web streams), interleaved. Run alone with
 * `node --import tsx bench/provider-transport.ts [rounds]`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { seededRandom, systemClock } from '../src/core/clock';
import { OpenAIProvider, type OpenAIProviderOptions } from '../src/core/provider/openai-chat/openai-provider';
import type { Row } from './storage';

const CHUNKS = 2_000;
const DELAY_MS = 1;
const words = Array.from({ length: CHUNKS }, (_, i) => `w${i} `);

export async function runProviderTransportBench(rounds = 7): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-transport-'));
  const script = join(dir, 'replies.json');
  writeFileSync(
    script,
    JSON.stringify(Array.from({ length: 2 * (rounds + 1) }, () => ({ text: words, delayMs: DELAY_MS }))),
  );
  const { child, url } = await startServerProcess(script);
  try {
    const http = provider(url, {});
    const undici = provider(url, { fetch: (input, init) => fetch(input, init) });
    await oneReply(http);
    await oneReply(undici);
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so that neither always follows the other.
      if (round % 2 === 0) {
        ours.push(await oneReply(http));
        theirs.push(await oneReply(undici));
      } else {
        theirs.push(await oneReply(undici));
        ours.push(await oneReply(http));
      }
    }
    const tole = median(ours);
    const baseline = median(theirs);
    return [
      {
        name: `provider CPU, ${CHUNKS / 1000}k chunks ${DELAY_MS} ms apart (vs Node's fetch)`,
        tole,
        baseline,
        unit: 'ms CPU',
        ratio: tole / baseline,
        target: '< 1x',
      },
    ];
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

function provider(baseURL: string, extra: Partial<OpenAIProviderOptions>): OpenAIProvider {
  return new OpenAIProvider({
    baseURL,
    random: seededRandom(1),
    clock: systemClock,
    retry: { maxAttempts: 1 },
    ...extra,
  });
}

/** CPU (user + system, ms) of this process while one reply streams in. */
async function oneReply(p: OpenAIProvider): Promise<number> {
  let text = '';
  const before = process.cpuUsage();
  await p.complete(
    {
      model: 'bench-model',
      messages: [{ role: 'user', content: 'go' }],
      tools: [],
      signal: new AbortController().signal,
    },
    (event) => {
      if (event.type === 'text') text += event.delta;
    },
  );
  const used = process.cpuUsage(before);
  if (text !== words.join('')) throw new Error('bench: the provider read a different text');
  return (used.user + used.system) / 1000;
}

async function startServerProcess(script: string): Promise<{ child: ChildProcess; url: string }> {
  const serverPath = join(import.meta.dirname, '..', 'test', 'support', 'chat-server.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', serverPath, '--script', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (line.startsWith('listening ')) return { child, url: line.slice('listening '.length) };
  }
  throw new Error('bench: the chat server did not start');
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await runProviderTransportBench(Number(process.argv[2] ?? 7));
  for (const row of rows)
    process.stdout.write(
      `${row.name}: ${row.tole.toFixed(0)} vs ${row.baseline.toFixed(0)} ${row.unit} (${row.ratio.toFixed(2)}x)\n`,
    );
  process.exit(0);
}
