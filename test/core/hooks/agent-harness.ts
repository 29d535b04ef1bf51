/**
 * The real turn loop for hook, compaction, loop-safety and fork tests: an Agent with the built-in
 * tools, the real approval policy, the OpenAI provider against a local chat server, and a session
 * store in a temp directory. Nothing is mocked.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ApprovalPolicy } from '../../../src/core/approval/approval-policy';
import type { ApprovalRequest, Approver, Decision } from '../../../src/core/approval/approver';
import { seededRandom, systemClock } from '../../../src/core/clock';
import type { HooksConfig } from '../../../src/core/hooks/hook-config';
import { HookRunner } from '../../../src/core/hooks/hook-runner';
import { OpenAIProvider } from '../../../src/core/provider/openai-chat/openai-provider';
import { Agent, type TurnResult } from '../../../src/core/session/agent';
import type { AgentDeps } from '../../../src/core/session/agent-deps';
import type { CompactionSettings } from '../../../src/core/session/compaction-settings';
import { currentHead } from '../../../src/core/session/cursor';
import type { SessionEvent } from '../../../src/core/session/events';
import { DEFAULT_LIMITS, type LoopLimits } from '../../../src/core/session/limits';
import { SessionStore } from '../../../src/core/storage/session-store';
import { builtinTools } from '../../../src/core/tools/builtin/index';
import { ToolRegistry } from '../../../src/core/tools/registry';
import type { AnyTool } from '../../../src/core/tools/tool';
import type { AnyEntry, Entry, EntryType } from '../../../src/core/tree/entry-types';
import { afterTheTest, tempDirForTest } from '../../support/after-the-test';
import { startChatServer, type ChatServer, type RecordedRequest, type ScriptedReply } from '../../support/chat-server';

export const MODEL = 'tole-test-model';
export const SYSTEM_PROMPT = 'You are tole under test.';

export interface HarnessOptions {
  readonly replies?: readonly ScriptedReply[];
  /** What the server's model list says (its default: the test model, 32,768 tokens). */
  readonly models?: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly hooks?: HooksConfig;
  /** The environment hooks inherit (default: this process's). */
  readonly hookEnv?: Readonly<Record<string, string | undefined>>;
  readonly limits?: Partial<LoopLimits>;
  /** An interactive approver: the TUI's part. Absent: headless. */
  readonly approver?: Approver;
  readonly yes?: boolean;
  readonly compaction?: CompactionSettings;
  readonly contextWindowTokens?: number;
  readonly extraTools?: readonly AnyTool[];
}

export interface Harness {
  readonly agent: Agent;
  readonly deps: AgentDeps;
  readonly store: SessionStore;
  readonly server: ChatServer;
  /** The workspace root (real path). */
  readonly root: string;
  /** Where session files live. */
  readonly sessionsDir: string;
  readonly events: SessionEvent[];
  run(prompt: string): Promise<TurnResult>;
  /** The chat completion requests the server got, in order (model list requests left out). */
  chatRequests(): RecordedRequest[];
  /** Entries on the path to the head, of one type. */
  pathOf<T extends EntryType>(type: T): Entry<T>[];
  path(): readonly AnyEntry[];
}

export function tempRoot(): { root: string; sessionsDir: string } {
  const parent = tempDirForTest('tole-session-');
  const root = path.join(parent, 'workspace');
  const sessionsDir = path.join(parent, 'sessions');
  mkdirSync(root);
  mkdirSync(sessionsDir);
  return { root, sessionsDir };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { root, sessionsDir } = tempRoot();
  const server = await startChatServer({
    replies: options.replies ?? [],
    ...(options.models ? { models: options.models } : {}),
  });
  afterTheTest(() => server.close());
  const store = SessionStore.create(sessionsDir, { clock: systemClock, random: seededRandom(7), cwd: root });
  afterTheTest(() => store.close());
  return harnessOn(store, server, root, sessionsDir, options);
}

/** An agent on an existing store and server (a fork, a reopened session). */
export function harnessOn(
  store: SessionStore,
  server: ChatServer,
  root: string,
  sessionsDir: string,
  options: HarnessOptions = {},
): Harness {
  const interactive = options.approver !== undefined;
  const tools = ToolRegistry.create({ interactiveApprover: interactive });
  for (const tool of builtinTools({ workspaceRoot: root, interactiveApprover: interactive })) tools.register(tool);
  for (const tool of options.extraTools ?? []) tools.register(tool);
  const provider = new OpenAIProvider({
    baseURL: server.url,
    apiKey: 'sk-test',
    random: seededRandom(11),
    clock: systemClock,
    retry: { jitter: 'none', maxAttempts: 2 },
    sleep: async () => {},
  });
  const deps: AgentDeps = {
    store,
    provider,
    tools,
    policy: new ApprovalPolicy({ rules: [], yes: options.yes ?? false, interactive }),
    approver: options.approver ?? null,
    workspaceRoot: root,
    systemPrompt: SYSTEM_PROMPT,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    price: () => ({ costUsdMicros: 7, priced: true }),
    ...(options.hooks
      ? {
          hooks: HookRunner.create({
            config: options.hooks,
            cwd: root,
            ...(options.hookEnv ? { env: options.hookEnv } : {}),
          }),
        }
      : {}),
    ...(options.compaction ? { compaction: options.compaction } : {}),
    ...(options.contextWindowTokens !== undefined ? { contextWindowTokens: options.contextWindowTokens } : {}),
  };
  const agent = new Agent(deps, MODEL);
  const events: SessionEvent[] = [];
  const harness: Harness = {
    agent,
    deps,
    store,
    server,
    root,
    sessionsDir,
    events,
    run: (prompt) => agent.runTurn(prompt, new AbortController().signal, (event) => events.push(event)),
    chatRequests: () => server.requests.filter((r) => r.method === 'POST'),
    pathOf: <T extends EntryType>(type: T) => harness.path().filter((e) => e.type === type) as unknown as Entry<T>[],
    path: () => store.tree.pathTo(currentHead(store).entryId),
  };
  return harness;
}

/** The messages of one recorded request, as the server got them. */
export function messagesOf(
  request: RecordedRequest,
): { role: string; content?: unknown; tool_call_id?: unknown; tool_calls?: unknown }[] {
  return [...(request.body?.messages ?? [])] as { role: string; content?: unknown }[];
}

/** Every message content of a request joined, for "does the model see X" checks. */
export function textOf(request: RecordedRequest): string {
  return messagesOf(request)
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')))
    .join('\n');
}

/** An approver that records what it was asked and answers with `decide`. */
export function recordingApprover(
  decide: (request: ApprovalRequest) => Decision,
): Approver & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    decide: async (request) => {
      asked.push(request);
      return decide(request);
    },
  };
}

/** Kills a process the test started, if it is still there. */
export function killLater(pid: number): void {
  afterTheTest(() => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  });
}

export function toolCall(name: string, args: Record<string, unknown>, id?: string): ScriptedReply {
  return { toolCalls: [{ name, arguments: JSON.stringify(args), ...(id ? { id } : {}) }] };
}
