/**
 * Plan re-injection cost: a task of 7 steps through the real turn loop (the OpenAIProvider
 * against the local chat server, the built-in tools, a real session file): update_plan, then 20
 * rounds of read_file over the repository's own sources. The same turn runs with re-injection
 * every 10 rounds (the default) and with it off (the baseline); the prompt tokens of every
 * request are estimated as tole estimates them (characters / 4, tools included), and the
 * difference over the 20 rounds, halved, is what re-injection costs per 10 rounds. Run alone
 * with `node --import tsx bench/plan-reinjection.ts`.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApprovalPolicy } from '../src/core/approval/approval-policy';
import { seededRandom, systemClock } from '../src/core/clock';
import type { ChatMessage } from '../src/core/provider/provider';
import { OpenAIProvider } from '../src/core/provider/openai-chat/openai-provider';
import { Agent } from '../src/core/session/agent';
import { estimateTokens } from '../src/core/session/compaction';
import { DEFAULT_LIMITS } from '../src/core/session/limits';
import { TASK_STATE_HEADING } from '../src/core/session/plan-nudges';
import { SessionStore } from '../src/core/storage/session-store';
import { builtinTools } from '../src/core/tools/builtin/index';
import { ToolRegistry } from '../src/core/tools/registry';
import { startChatServer, type ChatServer } from '../test/support/chat-server';
import { formatRows, type Row } from './storage';

const REPO = realpathSync(join(import.meta.dirname, '..'));
const ROUNDS = 20;
const STEPS = [
  'read the issue',
  'find the code',
  'write the tests',
  'fix the bug',
  'run the tests',
  'update the README',
  'commit',
];
const FILES = [
  'src/core/session/agent.ts',
  'src/core/session/compaction.ts',
  'src/core/session/context.ts',
  'src/tui/App.tsx',
];

export async function runPlanReinjectionBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-plans-'));
  const server = await startChatServer({ defaultReply: { text: 'done' } });
  try {
    const on = await turn(server, dir, DEFAULT_LIMITS.reinjectPlanEveryRounds);
    const off = await turn(server, dir, Number.MAX_SAFE_INTEGER);
    const per10 = ((on.total - off.total) * 10) / ROUNDS;
    return [
      {
        name: `prompt tokens re-injection adds per 10 tool rounds (a 7-step plan, 20 rounds of read_file; chars/4) vs the prompt tokens of those 10 rounds without it (${on.injected} of ${on.requests} requests carried it, ${on.stateTokens} tokens each)`,
        tole: Math.round(per10),
        baseline: Math.round((off.total * 10) / ROUNDS),
        unit: 'tokens',
        ratio: per10 / ((off.total * 10) / ROUNDS),
      },
    ];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface TurnTokens {
  readonly total: number;
  readonly requests: number;
  readonly injected: number;
  readonly stateTokens: number;
}

async function turn(server: ChatServer, dir: string, every: number): Promise<TurnTokens> {
  const plan = STEPS.map((step, i) => ({ step, status: i < 2 ? 'completed' : i === 2 ? 'in_progress' : 'pending' }));
  const first = server.requests.length;
  server.push({
    toolCalls: [{ name: 'update_plan', arguments: JSON.stringify({ explanation: 'tests first', plan }) }],
  });
  for (let i = 0; i < ROUNDS; i++)
    server.push({
      toolCalls: [
        { name: 'read_file', arguments: JSON.stringify({ path: FILES[i % FILES.length], offset: i + 1, limit: 40 }) },
      ],
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
      // The replan gate stays quiet: a nudge would count in both runs alike, but is not what is measured.
      limits: { ...DEFAULT_LIMITS, reinjectPlanEveryRounds: every, replanAfterRounds: 1000, stallRounds: 1000 },
      price: () => ({ costUsdMicros: 0, priced: false }),
    },
    'bench-model',
  );
  const result = await agent.runTurn('fix the bug', new AbortController().signal, () => {});
  store.close();
  if (result.outcome !== 'done') throw new Error(`bench: the turn ended ${result.outcome}`);
  const definitions = tools.definitions();
  let total = 0;
  let injected = 0;
  let stateTokens = 0;
  const requests = server.requests.slice(first).filter((r) => r.path.endsWith('/chat/completions'));
  for (const request of requests) {
    const messages = (request.body?.messages ?? []) as { role: string; content?: string | null }[];
    const asSent = messages.map((m) => ({ role: 'user', content: m.content ?? '' }) as ChatMessage);
    total += estimateTokens(asSent, definitions);
    const state = messages.find((m) => typeof m.content === 'string' && m.content.startsWith(TASK_STATE_HEADING));
    if (state) {
      injected++;
      stateTokens = estimateTokens([{ role: 'user', content: state.content! }]);
    }
  }
  return { total, requests: requests.length, injected, stateTokens };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await runPlanReinjectionBench();
  process.stdout.write(`${formatRows(rows)}\n`);
}
