/**
 * Streaming benchmark: tokens per second through the turn loop (OpenAIProvider -> events ->
 * committed assistant entry) beside the bare `openai` client reading the same stream from the
 * same local server, interleaved in one run. Run alone with `node --import tsx bench/stream.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import OpenAI from 'openai';
import { ApprovalPolicy } from '../src/core/approval/approval-policy';
import { seededRandom, systemClock } from '../src/core/clock';
import { OpenAIProvider } from '../src/core/provider/openai-chat/openai-provider';
import { Agent } from '../src/core/session/agent';
import { DEFAULT_LIMITS } from '../src/core/session/limits';
import { SessionStore } from '../src/core/storage/session-store';
import { ToolRegistry } from '../src/core/tools/registry';
import { startChatServer, type ChatServer } from '../test/support/chat-server';
import { formatRows, type Row } from './storage';

const TOKENS = 20_000;
const ROUNDS = 7;
const MODEL = 'bench-model';

const words = Array.from({ length: TOKENS }, (_, i) => `w${i} `);
const expectedText = words.join('');

export async function runStreamBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-stream-'));
  const server = await startChatServer({ defaultReply: { text: words } });
  try {
    // One warm-up of each, then interleaved rounds so that both see the same machine state.
    await bareClientRun(server);
    await loopRun(server, dir);
    const loop: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await bareClientRun(server));
      loop.push(await loopRun(server, dir));
    }
    const loopRate = TOKENS / (median(loop) / 1000);
    const bareRate = TOKENS / (median(bare) / 1000);
    return [
      {
        name: `stream ${TOKENS / 1000}k tokens (chunks), no delay`,
        tole: loopRate,
        baseline: bareRate,
        unit: 'tok/s',
        ratio: bareRate / loopRate,
        target: '<= 1.25x (>= 80%)',
      },
    ];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The floor: the `openai` client alone, reading the stream and joining the text. */
async function bareClientRun(server: ChatServer): Promise<number> {
  const client = new OpenAI({ baseURL: server.url, apiKey: 'bench', maxRetries: 0 });
  const started = process.hrtime.bigint();
  const stream = await client.chat.completions.create({
    model: MODEL,
    messages: [{ role: 'user', content: 'go' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (text !== expectedText) throw new Error('bench: the bare client read a different text');
  return ms;
}

/** One whole turn: prompt committed, stream read through the provider, assistant entry committed. */
async function loopRun(server: ChatServer, dir: string): Promise<number> {
  const store = SessionStore.create(dir, { clock: systemClock, random: seededRandom(9), cwd: dir });
  const random = seededRandom(11);
  const agent = new Agent(
    {
      store,
      provider: new OpenAIProvider({ baseURL: server.url, apiKey: 'bench', random, clock: systemClock }),
      tools: ToolRegistry.create({ interactiveApprover: false }),
      policy: new ApprovalPolicy({ rules: [], yes: false, interactive: false }),
      approver: null,
      workspaceRoot: dir,
      systemPrompt: 'bench',
      limits: DEFAULT_LIMITS,
      price: () => ({ costUsdMicros: 0, priced: false }),
    },
    MODEL,
  );
  let streamed = 0;
  const started = process.hrtime.bigint();
  const result = await agent.runTurn('go', new AbortController().signal, (event) => {
    if (event.type === 'text') streamed += event.delta.length;
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  store.close();
  if (result.outcome !== 'done' || result.text !== expectedText || streamed !== expectedText.length)
    throw new Error(`bench: the loop ended ${result.outcome} with a different text`);
  return ms;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await runStreamBench();
  process.stdout.write(`${formatRows(rows)}\n`);
}
