/**
 * Shared set-up for turn-loop tests: a real Agent over a real SessionStore in a temp directory,
 * the real OpenAIProvider aimed at the local chat server, the real ToolRegistry with the
 * built-ins (plus any extra tools), and the real ApprovalPolicy. Retry waits are recorded, not spent.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirWhereCalled } from './after-the-test';
import { z } from 'zod';
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import type { Approver } from '../../src/core/approval/approver';
import { seededRandom, systemClock, type Clock } from '../../src/core/clock';
import { OpenAIProvider } from '../../src/core/provider/openai-chat/openai-provider';
import type { Sleep } from '../../src/core/provider/retry';
import { Agent } from '../../src/core/session/agent';
import type { AgentDeps, ExternalTools, FaultPoint } from '../../src/core/session/agent-deps';
import type { UsageRow } from '../../src/core/usage/usage-row';
import type { SessionEvent } from '../../src/core/session/events';
import { DEFAULT_LIMITS, type LoopLimits } from '../../src/core/session/limits';
import { SessionStore } from '../../src/core/storage/session-store';
import { builtinTools } from '../../src/core/tools/builtin/index';
import { ToolRegistry } from '../../src/core/tools/registry';
import type { AnyTool, Tool } from '../../src/core/tools/tool';
import type { AnyEntry, Entry } from '../../src/core/tree/entry-types';
import { costUsdMicros } from '../../src/core/usage/pricing';
import type { RecordedRequest } from './chat-server';

export interface PolicyOptions {
  readonly yes?: boolean;
  readonly rules?: readonly string[];
  readonly interactive?: boolean;
}

export interface AgentOptions {
  readonly baseURL: string;
  readonly sessionsDir: string;
  readonly workspaceRoot: string;
  readonly model?: string;
  readonly policy?: PolicyOptions;
  readonly approver?: Approver | null;
  readonly extraTools?: readonly AnyTool[];
  readonly limits?: Partial<LoopLimits>;
  readonly sleep?: Sleep;
  readonly maxAttempts?: number;
  readonly fault?: (point: FaultPoint) => void;
  /** Open this session file instead of creating one. */
  readonly sessionPath?: string;
  /** With `sessionPath`: open it read-only (no lock, no writes). */
  readonly readOnly?: boolean;
  readonly clock?: Clock;
  /** Tools from outside (an MCP hub), made over the agent's registry. */
  readonly externalTools?: (tools: ToolRegistry, interactive: boolean) => ExternalTools;
  /** A temp tole home: checkpoints of the workspace are taken there (none without it). */
  readonly checkpointHome?: string;
  /** Deps over the ones built here (compaction settings, a tool-output cap, ...). */
  readonly deps?: Partial<AgentDeps>;
  /** The bash tool's environment (the process's, scrubbed, unless given). */
  readonly toolEnv?: Readonly<Record<string, string>>;
}

export interface BuiltAgent {
  readonly agent: Agent;
  readonly store: SessionStore;
  readonly deps: AgentDeps;
}

/** Waits nothing, so that retry tests do not spend their backoff. */
export const noSleep: Sleep = async (_ms, signal) => {
  if (signal.aborted) {
    const error = new Error('aborted');
    error.name = 'AbortError';
    throw error;
  }
};

export function buildAgent(options: AgentOptions): BuiltAgent {
  const clock = options.clock ?? systemClock;
  const random = seededRandom(0x70_1e);
  const store = options.sessionPath
    ? SessionStore.open(options.sessionPath, { clock, random, readOnly: options.readOnly ?? false })
    : SessionStore.create(options.sessionsDir, { clock, random, cwd: options.workspaceRoot });
  const approver = options.approver ?? null;
  const interactive = options.policy?.interactive ?? approver !== null;
  const tools = ToolRegistry.create({ interactiveApprover: interactive });
  for (const tool of builtinTools({
    workspaceRoot: options.workspaceRoot,
    interactiveApprover: interactive,
    ...(options.toolEnv ? { env: options.toolEnv } : {}),
  }))
    tools.register(tool);
  for (const tool of options.extraTools ?? []) tools.register(tool);
  const provider = new OpenAIProvider({
    baseURL: options.baseURL,
    apiKey: 'sk-test',
    random,
    clock,
    sleep: options.sleep ?? noSleep,
    retry: { jitter: 'none', maxAttempts: options.maxAttempts ?? 5 },
  });
  const deps: AgentDeps = {
    store,
    provider,
    tools,
    policy: new ApprovalPolicy({ rules: options.policy?.rules ?? [], yes: options.policy?.yes ?? false, interactive }),
    approver,
    workspaceRoot: options.workspaceRoot,
    systemPrompt: 'You are tole, under test.',
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    price: (report) => {
      const estimate = costUsdMicros(report.model, report.usage);
      return { costUsdMicros: estimate.costUsdMicros, priced: estimate.priced };
    },
    ...(options.fault ? { fault: options.fault } : {}),
    ...(options.externalTools ? { externalTools: options.externalTools(tools, interactive) } : {}),
    ...(options.checkpointHome
      ? { checkpoints: Checkpoints.create({ home: options.checkpointHome, workspaceRoot: options.workspaceRoot }) }
      : {}),
    ...options.deps,
  };
  return { agent: new Agent(deps, options.model ?? 'tole-test-model'), store, deps };
}

export interface TempDirs {
  /** The workspace root (real path). */
  readonly root: string;
  /** Where session files go. */
  readonly sessions: string;
  /** A sibling of the workspace, outside it. */
  readonly outside: string;
  /** A temp tole home (checkpoints), never the real one. */
  readonly home: string;
  readonly parent: string;
  remove(): void;
}

/**
 * A workspace, a sessions folder, a folder outside and a tole home, in one temp directory that goes
 * when the test or file that made it ends (tempDirWhereCalled); `remove` removes it sooner.
 */
export function tempDirs(prefix = 'tole-loop-'): TempDirs {
  const parent = tempDirWhereCalled(prefix);
  const root = join(parent, 'workspace');
  const sessions = join(parent, 'sessions');
  const outside = join(parent, 'outside');
  const home = join(parent, 'tole-home');
  for (const dir of [root, sessions, outside, home]) mkdirSync(dir);
  return { root, sessions, outside, home, parent, remove: () => rmSync(parent, { recursive: true, force: true }) };
}

/** An event sink that keeps everything. */
export function eventLog(): { events: SessionEvent[]; emit: (event: SessionEvent) => void } {
  const events: SessionEvent[] = [];
  return { events, emit: (event) => events.push(event) };
}

export function entriesOf(store: SessionStore): AnyEntry[] {
  return [...store.tree.all()].sort((a, b) => a.seq - b.seq);
}

export function entriesOfType<T extends AnyEntry['type']>(store: SessionStore, type: T): Entry<T>[] {
  return entriesOf(store).filter((entry): entry is Entry<T> & AnyEntry => entry.type === type) as Entry<T>[];
}

export function resultsFor(store: SessionStore, callId: string): Entry<'tool_result'>[] {
  return entriesOfType(store, 'tool_result').filter((entry) => entry.payload.callId === callId);
}

/** The usage ledger's rows, as the turn loop writes them. */
export function ledger(store: SessionStore): UsageRow[] {
  return store.usage.map((row) => row.usage as UsageRow);
}

/** The one `*.jsonl` file in a sessions directory. */
export function onlySessionFile(dir: string): string {
  const files = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  if (files.length !== 1) throw new Error(`expected one session file in ${dir}, found ${files.length}`);
  return join(dir, files[0]!);
}

// ---- Marker tools: each run of the effect appends one line to a file, so a test counts runs. ----

const markerInput = z.strictObject({ key: z.string().min(1) });
type MarkerInput = z.infer<typeof markerInput>;

export const MARKER_TOOL_NAMES = ['marker_idempotent', 'marker_guarded', 'marker_never'] as const;
export type MarkerToolName = (typeof MARKER_TOOL_NAMES)[number];

export function markerFile(workspaceRoot: string, tool: string): string {
  return join(workspaceRoot, 'markers', `${tool}.log`);
}

/** How many times the effect of `tool` ran (for `key`, when given). */
export function markerCount(workspaceRoot: string, tool: string, key?: string): number {
  const file = markerFile(workspaceRoot, tool);
  if (!existsSync(file)) return 0;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  return key === undefined ? lines.length : lines.filter((line) => line === key).length;
}

/**
 * The three replay classes as Write tools. The effect (one appended line) happens at once, in
 * the synchronous part of `execute`, so a crash "during the effect" lands after it started.
 */
export function markerTools(): Tool<MarkerInput>[] {
  const make = (name: MarkerToolName, replay: AnyTool['replay']): Tool<MarkerInput> => ({
    name,
    description: `Appends the key to markers/${name}.log (test tool, replay ${replay}).`,
    inputSchema: markerInput,
    replay,
    tier: 'hot',
    declaredRisk: 'Write',
    assess: (input) => ({ risk: 'Write', reason: `appends ${input.key} to a marker file` }),
    subject: (input) => input.key,
    execute: (input, ctx) => {
      const file = markerFile(ctx.workspaceRoot, name);
      mkdirSync(join(ctx.workspaceRoot, 'markers'), { recursive: true });
      appendFileSync(file, `${input.key}\n`);
      return Promise.resolve({ ok: true, content: `marked ${input.key}` });
    },
  });
  const guarded: Tool<MarkerInput> = {
    ...make('marker_guarded', 'guarded'),
    prepare: async (input) => ({ key: input.key }),
    guard: async (_input, prepared, ctx) => {
      const key = (prepared as { key?: unknown } | undefined)?.key;
      return typeof key === 'string' && markerCount(ctx.workspaceRoot, 'marker_guarded', key) > 0;
    },
  };
  return [make('marker_idempotent', 'idempotent'), guarded, make('marker_never', 'never')];
}

/**
 * A ReadOnly marker (replay idempotent, like the built-in reads): each run appends the key to
 * markers/marker_read.log, so a test counts runs of calls that run side by side.
 */
export function readMarkerTool(): Tool<MarkerInput> {
  return {
    name: 'marker_read',
    description:
      'Reads the key, and notes the run in markers/marker_read.log (test tool, ReadOnly, replay idempotent).',
    inputSchema: markerInput,
    replay: 'idempotent',
    tier: 'cold',
    declaredRisk: 'ReadOnly',
    assess: () => ({ risk: 'ReadOnly', reason: 'reads a key' }),
    subject: (input) => input.key,
    execute: (input, ctx) => {
      mkdirSync(join(ctx.workspaceRoot, 'markers'), { recursive: true });
      appendFileSync(markerFile(ctx.workspaceRoot, 'marker_read'), `${input.key}\n`);
      return Promise.resolve({ ok: true, content: `read ${input.key}` });
    },
  };
}

/** The chat completion requests a server received, in order (model-list lookups left out). */
export function chatRequests(server: { readonly requests: readonly RecordedRequest[] }): RecordedRequest[] {
  return server.requests.filter((request) => request.path.endsWith('/chat/completions'));
}
