/**
 * Runs one world of the corpus: builds it, makes each case's files, serves the cases' tool calls
 * one reply each from a real local chat server to the built tole under `--yes` (headless, with
 * the sandbox or with TOLE_NO_SANDBOX=1), and reads back what tole committed for every call.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChatServer } from '../../support/chat-server';
import { runBuiltTole } from '../../support/built-tole';
import { type AttackCase, type SandboxMode, fillArgs } from './attack-case';
import { seedKeptPrefixes } from './kept-prefixes';
import { buildWorld, type World } from './world';

export interface CallRecord {
  readonly outcome: string;
  readonly content: string;
  readonly durationMs: number;
}

export interface WorldRun {
  readonly world: World;
  readonly mode: SandboxMode;
  /** tole's exit and what it printed, for a failure's message. */
  readonly code: number | null;
  readonly stderr: string;
  /** What tole committed for each case's call, by case id (missing: never settled). */
  readonly calls: ReadonlyMap<string, CallRecord>;
  /** The whole session file and every request body sent to the provider, for leak checks. */
  readonly sessionText: string;
  readonly requestsText: string;
}

export const callIdOf = (id: string): string => `call_${id.replace(/[^a-zA-Z0-9_]/g, '_')}`;

export async function runWorld(name: string, mode: SandboxMode, cases: readonly AttackCase[]): Promise<WorldRun> {
  const world = buildWorld(`${mode}-${name}`, {
    workspaceIsHome: name === 'home',
    userTmux: cases.some((c) => /tmux|\{SOCK\}/.test(JSON.stringify(c.args))),
  });
  try {
    return await runIn(world, name, mode, cases);
  } catch (error) {
    // A world that never ran is removed here (its tmux server too); one that ran, by the suite.
    world.remove();
    throw error;
  }
}

async function runIn(world: World, name: string, mode: SandboxMode, cases: readonly AttackCase[]): Promise<WorldRun> {
  for (const c of cases) {
    const caseDir = join(world.ws, 'c', c.id);
    if (c.setup) {
      mkdirSync(caseDir, { recursive: true });
      c.setup(world, caseDir);
    }
  }
  const server = await startChatServer({ defaultReply: { text: 'done' } });
  server.push(
    ...cases.map((c) => ({
      toolCalls: [
        { id: callIdOf(c.id), name: c.tool ?? 'bash', arguments: JSON.stringify(fillArgs(c.args, world, c.id)) },
      ],
    })),
    { text: 'done' },
  );
  const started = performance.now();
  const env = { ...world.env, ...(mode === 'none' ? { TOLE_NO_SANDBOX: '1' } : {}) };
  // Kept prefixes: the session that kept them is resumed, and nothing else approves a Write call.
  const kept = [...new Set(cases.flatMap((c) => c.keptPrefixes ?? []))];
  const start = kept.length > 0 ? ['--resume', seedKeptPrefixes(world, kept)] : ['--yes'];
  try {
    const run = await runBuiltTole(
      ['-p', 'tidy up this repository', ...start, '--base-url', server.url, '--model', 'm'],
      {
        cwd: world.ws,
        env,
        timeoutMs: 120_000,
      },
    );
    const sessionText = readSession(world);
    const calls = committedCalls(sessionText);
    if (process.env.TOLE_CORPUS_TIMES) {
      console.log(`${mode} ${name}: ${cases.length} calls in ${Math.round(performance.now() - started)} ms`);
      for (const [id, call] of calls)
        if (call.durationMs > 300) console.log(`  ${id} ${call.outcome} ${call.durationMs} ms`);
    }
    return {
      world,
      mode,
      code: run.code,
      stderr: run.stderr,
      calls,
      sessionText,
      requestsText: server.requests.map((r) => JSON.stringify(r.body ?? '')).join('\n'),
    };
  } finally {
    await server.close();
  }
}

function readSession(world: World): string {
  const dir = join(world.toleHome, 'sessions');
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => readFileSync(join(dir, n), 'utf8'))
    .join('\n');
}

/** The tool results in a session file's lines, by call id. */
function committedCalls(sessionText: string): Map<string, CallRecord> {
  const calls = new Map<string, CallRecord>();
  for (const line of sessionText.split('\n')) {
    if (!line.startsWith('{"c"')) continue;
    const records = (JSON.parse(line) as { r: unknown }).r;
    for (const record of Array.isArray(records) ? records : [records]) {
      const entry = record as {
        kind?: string;
        type?: string;
        payload?: { callId?: string; outcome?: string; content?: unknown; durationMs?: number };
      };
      if (entry.kind !== 'entry' || entry.type !== 'tool_result' || !entry.payload?.callId) continue;
      const content =
        typeof entry.payload.content === 'string' ? entry.payload.content : JSON.stringify(entry.payload.content ?? '');
      calls.set(entry.payload.callId, {
        outcome: entry.payload.outcome ?? '?',
        content,
        durationMs: entry.payload.durationMs ?? 0,
      });
    }
  }
  return calls;
}
