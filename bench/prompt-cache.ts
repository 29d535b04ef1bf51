/**
 * What prompt caching saves: one 30-turn Anthropic session through tole's turn loop (each turn a
 * file read and an answer) against test/support/anthropic-server.ts, whose counters split every
 * prompt into cache reads, cache writes and uncached input as the Messages API does. The
 * session's cost priced from those counters (reads at 10%, writes at 125% of the input price)
 * beside the same prompts priced as uncached input, which is what every call costs without
 * breakpoints (or through Anthropic's OpenAI-compatible endpoint, which has no caching).
 * Run alone with `node --import tsx bench/prompt-cache.ts`.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApprovalPolicy } from '../src/core/approval/approval-policy';
import { seededRandom, systemClock } from '../src/core/clock';
import { AnthropicProvider } from '../src/core/provider/anthropic-messages/anthropic-provider';
import { Agent } from '../src/core/session/agent';
import { DEFAULT_LIMITS } from '../src/core/session/limits';
import { defaultSystemPrompt } from '../src/core/session/system-prompt';
import { SessionStore } from '../src/core/storage/session-store';
import { builtinTools } from '../src/core/tools/builtin/index';
import { ToolRegistry } from '../src/core/tools/registry';
import { costUsdMicros } from '../src/core/usage/pricing';
import { startAnthropicServer } from '../test/support/anthropic-server';
import { formatRows, type Row } from './storage';

const TURNS = 30;
const MODEL = 'claude-sonnet-4-5';

export async function runPromptCacheBench(): Promise<Row[]> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tole-bench-cache-')));
  const sessions = realpathSync(mkdtempSync(join(tmpdir(), 'tole-bench-cache-sessions-')));
  const server = await startAnthropicServer();
  try {
    for (let i = 1; i <= TURNS; i++)
      writeFileSync(join(dir, `part-${i}.ts`), `export const part${i} = ${JSON.stringify('x'.repeat(1500))};\n`);
    server.push(
      ...Array.from({ length: TURNS }, (_, i) => [
        { toolCalls: [{ id: `toolu_${i}`, name: 'read_file', input: JSON.stringify({ path: `part-${i + 1}.ts` }) }] },
        { text: `part ${i + 1} holds one long string constant; ${'it is plain data. '.repeat(8)}` },
      ]).flat(),
    );
    const agent = agentFor(dir, sessions, server.url);
    for (let turn = 1; turn <= TURNS; turn++) {
      const result = await agent.runTurn(`what is in part-${turn}.ts?`, new AbortController().signal, () => {});
      if (result.outcome !== 'done') throw new Error(`turn ${turn} ended ${result.outcome}`);
    }
    const counters = server.totals();
    const inputTokens = counters.input_tokens + counters.cache_read_input_tokens + counters.cache_creation_input_tokens;
    const cached = costUsdMicros(MODEL, {
      inputTokens,
      outputTokens: counters.output_tokens,
      cachedInputTokens: counters.cache_read_input_tokens,
      cacheWriteTokens: counters.cache_creation_input_tokens,
    }).costUsdMicros;
    const uncached = costUsdMicros(MODEL, {
      inputTokens,
      outputTokens: counters.output_tokens,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
    }).costUsdMicros;
    const share = Math.round((100 * counters.cache_read_input_tokens) / inputTokens);
    return [
      {
        name: `${TURNS}-turn Anthropic session cost, prompt cache (vs none; ${share}% of ${Math.round(inputTokens / 1000)}k input read from cache)`,
        tole: cached / 10_000,
        baseline: uncached / 10_000,
        unit: 'cents',
        ratio: cached / uncached,
        target: '< 0.5x',
      },
    ];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(sessions, { recursive: true, force: true });
  }
}

function agentFor(workspaceRoot: string, sessionsDir: string, baseURL: string): Agent {
  const random = seededRandom(29);
  const store = SessionStore.create(sessionsDir, { clock: systemClock, random, cwd: workspaceRoot });
  const tools = ToolRegistry.create({ interactiveApprover: false });
  for (const tool of builtinTools({ workspaceRoot, interactiveApprover: false })) tools.register(tool);
  const provider = new AnthropicProvider({ baseURL, apiKey: 'sk-ant-bench', random, clock: systemClock });
  return new Agent(
    {
      store,
      provider,
      tools,
      policy: new ApprovalPolicy({ rules: [], yes: false, interactive: false }),
      approver: null,
      workspaceRoot,
      systemPrompt: defaultSystemPrompt(workspaceRoot, new Date(0).toISOString()),
      limits: DEFAULT_LIMITS,
      price: (report) => costUsdMicros(report.model, report.usage),
    },
    MODEL,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${formatRows(await runPromptCacheBench())}\n`);
}
