/**
 * Makes examples/demo.jsonl by driving the real turn loop against the local test server:
 * branches, tool calls with approvals and a denial, a retried 429, a usage ledger.
 * Run with `node --import tsx scripts/make-demo.ts`.
 */
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApprovalPolicy } from '../src/core/approval/approval-policy';
import type { ApprovalRequest, Approver, Decision } from '../src/core/approval/approver';
import { seededRandom, type Clock } from '../src/core/clock';
import { OpenAIProvider } from '../src/core/provider/openai-chat/openai-provider';
import { Agent } from '../src/core/session/agent';
import { checkout } from '../src/core/session/cursor';
import { DEFAULT_LIMITS } from '../src/core/session/limits';
import { defaultSystemPrompt } from '../src/core/session/system-prompt';
import { SessionStore } from '../src/core/storage/session-store';
import { builtinTools } from '../src/core/tools/builtin/index';
import { ToolRegistry } from '../src/core/tools/registry';
import { costUsdMicros } from '../src/core/usage/pricing';
import { startChatServer, type ScriptedReply } from '../test/support/chat-server';

const MODEL = 'gpt-4.1-mini';
const out = join(import.meta.dirname, '..', 'examples', 'demo.jsonl');

/** A clock that starts on a fixed day and moves a little with every read, so the demo is stable. */
function demoClock(): Clock {
  let ms = Date.UTC(2026, 10, 2, 9, 30);
  return { nowMs: () => (ms += 137), nowNs: () => BigInt(ms) * 1_000_000n };
}

/** Answers approval prompts as a person would in the demo: yes to the edit, no to the delete. */
const scriptedUser: Approver = {
  async decide(request: ApprovalRequest): Promise<Decision> {
    if (request.risk === 'Destructive') return { approved: false, by: 'user', reason: 'keep the old tests for now' };
    return { approved: true, by: 'user' };
  },
};

const usage = (prompt: number, completion: number, cached = 0): Record<string, unknown> => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: cached },
});

const replies: ScriptedReply[] = [
  {
    error: {
      status: 429,
      headers: { 'retry-after-ms': '20' },
      body: { error: { message: 'Rate limit reached for gpt-4.1-mini', type: 'rate_limit' } },
    },
  },
  {
    text: ["I'll look ", 'at the test ', 'first.'],
    toolCalls: [{ name: 'read_file', arguments: '{"path":"test/flaky.test.js"}' }],
    usage: usage(1850, 40),
  },
  {
    text: 'The test races the timer: it checks the result before the write is flushed. I will await the write.',
    toolCalls: [
      {
        name: 'edit_file',
        arguments: JSON.stringify({
          path: 'test/flaky.test.js',
          old_text: '  write(log);\n',
          new_text: '  await write(log);\n',
        }),
      },
    ],
    usage: usage(2400, 120, 1800),
  },
  {
    text: 'Fixed: the test now awaits the write, so it no longer reads a half-written log.\n\n```js\nawait write(log);\n```',
    usage: usage(2700, 60, 2300),
  },
  {
    text: 'I can delete the old snapshot tests as well.',
    toolCalls: [{ name: 'delete_path', arguments: '{"path":"test/old"}' }],
    usage: usage(2900, 30, 2600),
  },
  { text: 'Understood, the old tests stay. Anything else?', usage: usage(3000, 20, 2800) },
  {
    text: 'A lock file would serialise writers, but a compare-and-set on the sequence number is simpler and needs no cleanup after a crash.',
    usage: usage(2300, 70, 1800),
  },
];

async function main(): Promise<void> {
  const server = await startChatServer({ replies });
  const work = mkdtempSync(join(tmpdir(), 'tole-demo-'));
  try {
    const workspace = join(work, 'project');
    mkdirSync(join(workspace, 'test', 'old'), { recursive: true });
    writeFileSync(
      join(workspace, 'test', 'flaky.test.js'),
      "test('log is written', async () => {\n  write(log);\n  expect(read()).toBe('done');\n});\n",
    );
    writeFileSync(join(workspace, 'test', 'old', 'snap.test.js'), '// old snapshot tests\n');
    const clock = demoClock();
    const random = seededRandom(2026);
    const root = realpathSync(workspace);
    const store = SessionStore.create(work, { clock, random, cwd: '/home/dev/project' });
    const tools = ToolRegistry.create({ interactiveApprover: true });
    for (const tool of builtinTools({ workspaceRoot: root, interactiveApprover: true })) tools.register(tool);
    const provider = new OpenAIProvider({ baseURL: server.url, apiKey: 'demo', random, clock, sleep: async () => {} });
    const agent = new Agent(
      {
        store,
        provider,
        tools,
        policy: new ApprovalPolicy({ rules: [], yes: false, interactive: true }),
        approver: scriptedUser,
        workspaceRoot: root,
        systemPrompt: defaultSystemPrompt('/home/dev/project', '2026-11-02'),
        limits: DEFAULT_LIMITS,
        price: (report) => costUsdMicros(report.model, report.usage),
      },
      MODEL,
    );
    const signal = new AbortController().signal;
    const quiet = (): void => {};
    await agent.runTurn('fix the flaky test in test/flaky.test.js', signal, quiet);
    const fixed = store.tree.pathTo(store.registers.get<{ entryId: string }>('lane.head', 'head')!.entryId);
    await agent.runTurn('also delete the old snapshot tests', signal, quiet);
    // Branch: go back to the first prompt's parent and ask differently.
    const firstPrompt = fixed.find((e) => e.type === 'user')!;
    checkout(store, firstPrompt.parentId);
    await agent.runTurn('would a lock file fix the race instead?', signal, quiet);
    store.commit([
      { kind: 'register', op: 'set', namespace: 'fact.label', key: firstPrompt.id, value: 'the flaky test' },
    ]);
    store.close();
    copyFileSync(store.path, out);
    process.stdout.write(`wrote ${out}: ${store.tree.size} entries, ${store.usage.length} usage rows\n`);
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
