/**
 * `tole -p` end to end against servers that follow the Chat Completions protocol loosely: each
 * behaviour is a profile of the local chat server (see `ScriptedReply` for the document each one
 * comes from), and each test runs the whole headless turn as a child process.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDirForFile } from '../support/after-the-test';
import { startChatServer, type ChatServer, type ScriptedReply } from '../support/chat-server';
import { chatRequests, onlySessionFile, tempDirs, type TempDirs } from '../support/agent-fixtures';
import type { ChildRun } from '../support/spawn-node';
import { runBuiltTole } from '../support/built-tole';

let server: ChatServer;
const all: TempDirs[] = [];

beforeAll(async () => {
  server = await startChatServer({ defaultReply: { text: 'default answer' } });
});

afterAll(async () => {
  await server.close();
  for (const d of all) d.remove();
});

afterEach(() => {
  server.clear();
  while (server.requests.length > 0) server.requests.pop();
});

interface Run extends ChildRun {
  readonly dirs: TempDirs;
}

/** A fresh workspace (with `notes.txt`), a user config with `limits`, and one headless turn. */
function turn(
  replies: readonly ScriptedReply[],
  limits: Record<string, number> = {},
  extra: readonly string[] = [],
  dirs?: TempDirs,
): Promise<Run> {
  return turnAgainst(server, replies, limits, extra, dirs);
}

/** `notes.txt` in the workspace, and a user config with `limits`. */
function prepare(d: TempDirs, limits: Record<string, number>): void {
  writeFileSync(join(d.root, 'notes.txt'), 'the notes\n');
  mkdirSync(join(d.parent, '.config', 'tole'), { recursive: true });
  writeFileSync(join(d.parent, '.config', 'tole', 'config.json'), JSON.stringify({ limits }));
}

/** `turn` against a server of the caller's. */
async function turnAgainst(
  server: ChatServer,
  replies: readonly ScriptedReply[],
  limits: Record<string, number> = {},
  extra: readonly string[] = [],
  dirs?: TempDirs,
): Promise<Run> {
  const d = dirs ?? tempDirs('tole-loose-');
  if (dirs === undefined) {
    all.push(d);
    prepare(d, limits);
  }
  server.push(...replies);
  const env = { PATH: process.env.PATH, HOME: d.parent, TOLE_HOME: join(d.parent, 'tole-home'), LANG: 'C.UTF-8' };
  const run = await runBuiltTole(['-p', 'go', '--base-url', server.url, '--model', 'm', ...extra], {
    cwd: d.root,
    env,
  });
  return { ...run, dirs: d };
}

interface Row {
  readonly kind: string;
  readonly type?: string;
  readonly payload?: Record<string, unknown>;
  readonly [key: string]: unknown;
}

function records(d: TempDirs): Row[] {
  const file = onlySessionFile(join(d.parent, 'tole-home', 'sessions'));
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line !== '');
  return lines.flatMap((line) => (JSON.parse(line) as { r: Row[] }).r);
}

function entries(d: TempDirs, type: string): Row[] {
  return records(d).filter((row) => row.kind === 'entry' && row.type === type);
}

function usageOutcomes(d: TempDirs): unknown[] {
  return records(d)
    .filter((row) => row.kind === 'usage')
    .map((row) => (row as { usage?: { outcome?: unknown } }).usage?.outcome);
}

function usageErrors(d: TempDirs): unknown[] {
  return records(d)
    .filter((row) => row.kind === 'usage')
    .map((row) => (row as { usage?: { error?: unknown } }).usage?.error);
}

type WireMessage = {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string } }>;
};

function messagesOf(index: number): WireMessage[] {
  return (chatRequests(server)[index]?.body?.messages ?? []) as WireMessage[];
}

describe('tole -p against loosely compatible servers', () => {
  it('a refusal is printed as the answer, recorded, and sent back as the assistant words', async () => {
    const first = await turn([{ refusal: ["I can't help ", 'with that.'] }]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe("I can't help with that.\n");
    expect(first.stderr).toContain('declined to answer');
    const [assistant] = entries(first.dirs, 'assistant');
    expect(assistant?.payload).toMatchObject({ text: '', refusal: "I can't help with that." });

    const second = await turn([{ text: 'fine' }], {}, ['-c'], first.dirs);
    expect(second.code, second.stderr).toBe(0);
    const sent = messagesOf(1).find((m) => m.role === 'assistant');
    expect(sent?.content).toBe("I can't help with that.");
  });

  it('a tool-call reply with no finish_reason (the stream ends with [DONE]) runs its calls', async () => {
    const run = await turn([
      {
        toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"notes.txt"}' }],
        finishReason: null,
        usageInFinalChunk: true,
      },
      { text: 'read it', finishReason: null },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('read it\n');
    const tool = messagesOf(1).find((m) => m.role === 'tool');
    expect(tool).toMatchObject({ tool_call_id: 'c1' });
    expect(String(tool?.content)).toContain('the notes');
    expect(chatRequests(server)).toHaveLength(2);
  });

  it('a legacy function_call is run like any call, under an id tole makes and records', async () => {
    const run = await turn([
      { legacyFunctionCall: { name: 'read_file', arguments: '{"path":"notes.txt"}', fragments: 3 } },
      { text: 'done' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [assistant] = entries(run.dirs, 'assistant');
    const calls = assistant?.payload?.toolCalls as Array<{
      id: string;
      name: string;
      legacy?: boolean;
      idFixed?: string;
    }>;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: 'read_file', legacy: true, idFixed: 'missing' });
    const sent = messagesOf(1);
    expect(sent.find((m) => m.role === 'assistant')?.tool_calls?.[0]?.id).toBe(calls[0]!.id);
    const tool = sent.find((m) => m.role === 'tool');
    expect(tool?.tool_call_id).toBe(calls[0]!.id);
    expect(String(tool?.content)).toContain('the notes');
  });

  it('ambiguous tool calls each settle as an error the model reads, under unique recorded ids', async () => {
    const run = await turn([
      {
        toolCalls: [
          { id: 'dup', name: 'read_file', arguments: '{"path":"notes.txt"}' },
          { id: 'dup', name: 'read_file', arguments: '{"path":"notes.txt"' },
          { id: '', name: 'read_file', arguments: '' },
          { id: 'x', name: 'launch_rockets', arguments: '{}' },
        ],
      },
      { text: 'ok' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [assistant] = entries(run.dirs, 'assistant');
    const calls = assistant?.payload?.toolCalls as Array<{ id: string; idFixed?: string }>;
    const ids = calls.map((c) => c.id);
    expect(new Set(ids).size).toBe(4);
    expect(calls[0]).toEqual(expect.objectContaining({ id: 'dup' }));
    expect(calls[1]?.idFixed).toBe('duplicate');
    expect(calls[2]?.idFixed).toBe('missing');
    const results = entries(run.dirs, 'tool_result').map(
      (row) => row.payload as { callId: string; outcome: string; content: string },
    );
    expect(results.map((r) => r.callId)).toEqual(ids);
    expect(results.map((r) => r.outcome)).toEqual(['ok', 'error', 'error', 'error']);
    expect(results[1]?.content).toContain('not valid JSON');
    expect(results[2]?.content).toContain('no arguments');
    expect(results[3]?.content).toContain('Unknown tool "launch_rockets"');
    const toolMessages = messagesOf(1).filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.tool_call_id)).toEqual(ids);
  });

  it('a 200 JSON completion to a streaming request is used as the answer, tool calls included', async () => {
    const run = await turn([
      { nonStream: 'json', toolCalls: [{ id: 'j1', name: 'read_file', arguments: '{"path":"notes.txt"}' }] },
      { nonStream: 'json', text: 'from a JSON body' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('from a JSON body\n');
    expect(chatRequests(server)).toHaveLength(2);
    expect(usageOutcomes(run.dirs)).toEqual(['ok', 'ok']);
  });

  it('an event stream labelled text/plain is still read as a stream', async () => {
    const run = await turn([{ nonStream: 'sse-as-text', text: ['mis', 'labelled'] }]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('mislabelled\n');
  });

  it('an HTML page with status 200 is one clear error naming it, not retried as a drop', async () => {
    const run = await turn([{ nonStream: 'html' }]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('text/html');
    expect(run.stderr).toContain('Sign in to continue');
    expect(chatRequests(server)).toHaveLength(1);
    expect(usageOutcomes(run.dirs)).toEqual(['bad_request']);
  });
});

/**
 * Each waits out one of tole's limits (1 s, the least the config accepts, or 2 s): side by side,
 * each with a server of its own, the file waits for the longest instead of their sum.
 */
describe.concurrent('tole -p against servers that stall', () => {
  const servers: ChatServer[] = [];
  const ownServer = async (): Promise<ChatServer> => {
    const own = await startChatServer({ defaultReply: { text: 'default answer' } });
    servers.push(own);
    return own;
  };
  afterAll(async () => {
    await Promise.all(servers.map((own) => own.close()));
  });
  // A concurrent test's directories are the file's (a test's own undo could run when another ends).
  const base = tempDirForFile('tole-loose-stall-');
  let turns = 0;
  /** A turn against a server of its own, in fresh directories under `base` with `limits`. */
  const stalledTurn = async (
    server: ChatServer,
    replies: readonly ScriptedReply[],
    limits: Record<string, number>,
  ): Promise<Run> => {
    const parent = join(base, `turn-${++turns}`);
    const d: TempDirs = {
      root: join(parent, 'workspace'),
      sessions: join(parent, 'sessions'),
      outside: join(parent, 'outside'),
      home: join(parent, 'tole-home'),
      parent,
      remove: () => {},
    };
    for (const dir of [d.root, d.sessions, d.outside, d.home]) mkdirSync(dir, { recursive: true });
    prepare(d, limits);
    return turnAgainst(server, replies, limits, [], d);
  };

  it('a stream that stalls (keep-alive comments only) past the idle limit is retried, one usage row per attempt', async ({
    expect,
  }) => {
    const server = await ownServer();
    const run = await stalledTurn(
      server,
      [{ text: ['par', 'tial'], stallAfterChunks: 2, keepAliveMs: 200 }, { text: 'whole answer' }],
      { streamIdleTimeoutMs: 1000 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('whole answer\n');
    expect(chatRequests(server)).toHaveLength(2);
    expect(usageOutcomes(run.dirs)).toEqual(['stream_dropped', 'ok']);
  });

  it('a stream that opens and never sends a token is dropped at the first-token limit', async ({ expect }) => {
    // Both limits at the least the config accepts: the dropped attempt's error names which one fired.
    const run = await stalledTurn(await ownServer(), [{ text: 'late', stallAfterChunks: 1 }, { text: 'second try' }], {
      streamIdleTimeoutMs: 1000,
      firstTokenTimeoutMs: 1000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('second try\n');
    expect(usageOutcomes(run.dirs)).toEqual(['stream_dropped', 'ok']);
    expect(usageErrors(run.dirs)[0]).toContain(
      'no answer for 1 s after the stream opened (limits.firstTokenTimeoutMs)',
    );
  });

  it('a hung server holds a turn no longer than limits.modelCallTimeoutMs', async ({ expect }) => {
    const server = await ownServer();
    const stalled: ScriptedReply = { text: 'x', stallAfterChunks: 1 };
    // Five stalled replies at 1 s each would outlast the 2 s call limit: the error naming it and the
    // requests left unsent show the limit ended the turn, however slow the machine. The limit is two
    // idle limits, the shortest that still lets a retry start before it.
    const run = await stalledTurn(server, [stalled, stalled, stalled, stalled, stalled], {
      streamIdleTimeoutMs: 1000,
      firstTokenTimeoutMs: 1000,
      modelCallTimeoutMs: 2000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('limits.modelCallTimeoutMs');
    expect(chatRequests(server).length).toBeLessThan(5);
  });
});
