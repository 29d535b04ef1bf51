/**
 * Read fan-out benchmark: one model reply asking for 8 ReadOnly calls (4 `read_file`, 4 `grep`
 * over the repository's own `src`), through the real turn loop: the real OpenAIProvider against
 * the local chat server, the built-in tools, a real session file with every commit fsynced.
 * The same turn runs with the calls one at a time (`readConcurrency: 1`, the baseline) and side
 * by side (the default), interleaved round by round. Run alone with `node --import tsx bench/read-fan-out.ts`.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApprovalPolicy } from '../src/core/approval/approval-policy';
import { seededRandom, systemClock } from '../src/core/clock';
import { OpenAIProvider } from '../src/core/provider/openai-chat/openai-provider';
import { Agent } from '../src/core/session/agent';
import { DEFAULT_LIMITS } from '../src/core/session/limits';
import { DEFAULT_READ_CONCURRENCY } from '../src/core/session/read-fan-out';
import { SessionStore } from '../src/core/storage/session-store';
import { builtinTools } from '../src/core/tools/builtin/index';
import { ToolRegistry } from '../src/core/tools/registry';
import { startChatServer, type ChatServer } from '../test/support/chat-server';
import { formatRows, type Row } from './storage';

const ROUNDS = 7;
const MODEL = 'bench-model';
const REPO = realpathSync(join(import.meta.dirname, '..'));

const CALLS = [
  { name: 'read_file', arguments: { path: 'src/core/session/agent.ts' } },
  { name: 'read_file', arguments: { path: 'src/core/storage/session-store.ts' } },
  { name: 'read_file', arguments: { path: 'src/tui/App.tsx' } },
  { name: 'read_file', arguments: { path: 'src/cli/wiring.ts' } },
  { name: 'grep', arguments: { pattern: 'export function', path: 'src' } },
  { name: 'grep', arguments: { pattern: 'AbortSignal', path: 'src' } },
  { name: 'grep', arguments: { pattern: 'store\\.commit\\(', path: 'src' } },
  { name: 'grep', arguments: { pattern: 'TODO|FIXME|readonly \\w+: string', path: 'src' } },
];

export async function runReadFanOutBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-reads-'));
  const server = await startChatServer({ defaultReply: { text: 'read them all' } });
  try {
    // One warm-up of each (the file cache, the JIT), then interleaved rounds.
    await turn(server, dir, 1);
    await turn(server, dir, DEFAULT_READ_CONCURRENCY);
    const sequential: number[] = [];
    const parallel: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      sequential.push(await turn(server, dir, 1));
      parallel.push(await turn(server, dir, DEFAULT_READ_CONCURRENCY));
    }
    const seq = median(sequential);
    const par = median(parallel);
    return [
      {
        name: `turn with 8 ReadOnly calls (4 read_file + 4 grep over src), side by side (at most ${DEFAULT_READ_CONCURRENCY}) vs one at a time`,
        tole: par,
        baseline: seq,
        unit: 'ms',
        ratio: par / seq,
        target: '< 1x',
      },
    ];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One whole turn: the reply with the 8 calls, their effect sandwiches, the answer. */
async function turn(server: ChatServer, dir: string, readConcurrency: number): Promise<number> {
  server.push({
    toolCalls: CALLS.map((call, i) => ({
      id: `call_${i}`,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    })),
  });
  const store = SessionStore.create(dir, { clock: systemClock, random: seededRandom(9), cwd: REPO });
  const random = seededRandom(11);
  const tools = ToolRegistry.create({ interactiveApprover: false });
  for (const tool of builtinTools({ workspaceRoot: REPO, interactiveApprover: false })) tools.register(tool);
  const agent = new Agent(
    {
      store,
      provider: new OpenAIProvider({ baseURL: server.url, apiKey: 'bench', random, clock: systemClock }),
      tools,
      policy: new ApprovalPolicy({ rules: [], yes: false, interactive: false }),
      approver: null,
      workspaceRoot: REPO,
      systemPrompt: 'bench',
      limits: DEFAULT_LIMITS,
      price: () => ({ costUsdMicros: 0, priced: false }),
      readConcurrency,
    },
    MODEL,
  );
  let ok = 0;
  const started = process.hrtime.bigint();
  const result = await agent.runTurn('read', new AbortController().signal, (event) => {
    if (event.type === 'tool-result' && event.outcome === 'ok') ok++;
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  store.close();
  if (result.outcome !== 'done' || ok !== CALLS.length)
    throw new Error(`bench: the turn ended ${result.outcome} with ${ok} of ${CALLS.length} calls ok`);
  return ms;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await runReadFanOutBench();
  process.stdout.write(`${formatRows(rows)}\n`);
}
