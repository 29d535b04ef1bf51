/**
 * `tole -p` as a child process against the local chat server, with TOLE_HOME and HOME in a temp
 * directory: exit codes, stdout, JSON events, approval denials and `tole check` on the file it made.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ScriptedReply } from '../support/chat-server';
import { chatRequests, onlySessionFile, tempDirs, type TempDirs } from '../support/agent-fixtures';
import type { ChildRun } from '../support/spawn-node';
import { runBuiltTole } from '../support/built-tole';
import { closedPort } from '../support/closed-port';

let server: ChatServer;
let dirs: TempDirs;
const all: TempDirs[] = [];

beforeAll(async () => {
  server = await startChatServer({ defaultReply: { text: 'default answer' } });
});

afterAll(async () => {
  await server.close();
  for (const d of all) d.remove();
});

afterEach(() => {
  // Replies a test did not use must not leak into the next one.
  while (server.requests.length > 0) server.requests.pop();
});

function fresh(): TempDirs {
  dirs = tempDirs('tole-headless-');
  all.push(dirs);
  return dirs;
}

function env(d: TempDirs): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: d.parent, TOLE_HOME: join(d.parent, 'tole-home'), LANG: 'C.UTF-8' };
}

async function tole(args: readonly string[], replies: readonly ScriptedReply[] = []): Promise<ChildRun> {
  const d = dirs;
  server.push(...replies);
  return runBuiltTole(args, { cwd: d.root, env: env(d) });
}

function sessionsDir(d: TempDirs): string {
  return join(d.parent, 'tole-home', 'sessions');
}

/** stderr lines that are not the trailing `tole: session ID` line. */
function reasons(run: ChildRun): string[] {
  return run.stderr.split('\n').filter((line) => line !== '' && !/^tole: session \S+$/.test(line));
}

async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}/v1`;
}

describe('tole -p (headless) end to end', () => {
  it('prints the answer and exits 0; the session file it made passes tole check', async () => {
    fresh();
    const run = await tole(['-p', 'say hi', '--base-url', server.url, '--model', 'm'], [{ text: ['hi ', 'there'] }]);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('hi there\n');
    expect(chatRequests(server).at(-1)?.body?.model).toBe('m');
    const file = onlySessionFile(sessionsDir(dirs));
    expect(run.stderr).toContain(
      `session ${file
        .split('/')
        .at(-1)!
        .replace(/\.jsonl$/, '')}`,
    );

    const check = await runBuiltTole(['check', file], { cwd: dirs.root, env: env(dirs) });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('--output json prints one JSON event per line, ending with a result line', async () => {
    fresh();
    const run = await tole(
      ['-p', 'say hi', '--base-url', server.url, '--model', 'm', '--output', 'json'],
      [{ text: ['json ', 'answer'] }],
    );

    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    expect(events[0]!.type).toBe('state');
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['turn-started', 'text', 'attempt', 'usage', 'turn-ended']),
    );
    const result = events.at(-1)!;
    expect(result).toMatchObject({ type: 'result', outcome: 'done', text: 'json answer' });
    expect(events.filter((e) => e.type === 'result')).toHaveLength(1);
    expect(existsSync(String(result.path))).toBe(true);

    const check = await runBuiltTole(['check', String(result.path)], { cwd: dirs.root, env: env(dirs) });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('exits 1 with a one-line reason when the server returns 500 on every attempt', async () => {
    fresh();
    writeFileSync(join(dirs.root, 'tole.config.json'), JSON.stringify({ limits: { maxAttempts: 2 } }));
    const failure: ScriptedReply = {
      error: { status: 500, body: { error: { message: 'the upstream is on fire', type: 'server_error', code: null } } },
    };
    const run = await tole(['-p', 'hi', '--base-url', server.url, '--model', 'm'], [failure, failure]);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(reasons(run)).toHaveLength(1);
    expect(reasons(run)[0]).toMatch(/^tole: .*500/);
    expect(chatRequests(server)).toHaveLength(2);
  });

  it('exits 1 with a one-line reason when the server is down', async () => {
    fresh();
    writeFileSync(join(dirs.root, 'tole.config.json'), JSON.stringify({ limits: { maxAttempts: 2 } }));
    const run = await tole(['-p', 'hi', '--base-url', await closedPortUrl(), '--model', 'm']);

    expect(run.code).toBe(1);
    expect(reasons(run)).toHaveLength(1);
    expect(reasons(run)[0]).toMatch(/^tole: could not reach http:\/\/127\.0\.0\.1:\d+\/v1/);
  });

  it('exits 2 for a bad flag', async () => {
    fresh();
    const run = await tole(['-p', 'hi', '--frobnicate']);

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown flag --frobnicate/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 for -p with --read-only, which could not commit the turn', async () => {
    fresh();
    const run = await tole([
      '-p',
      'hi',
      '--read-only',
      '--resume',
      'whatever',
      '--base-url',
      server.url,
      '--model',
      'm',
    ]);

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--read-only/);
    expect(chatRequests(server)).toHaveLength(0);
  });

  it('exits 2 for a bad config file, naming the field', async () => {
    fresh();
    writeFileSync(join(dirs.root, 'tole.config.json'), JSON.stringify({ limits: { maxSteps: 'many' } }));
    const run = await tole(['-p', 'hi', '--base-url', server.url, '--model', 'm']);

    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/tole\.config\.json.*"limits\.maxSteps"/);
    expect(chatRequests(server)).toHaveLength(0);
  });

  it('denies a Write without a rule and says which --allow rule or --yes would allow it', async () => {
    fresh();
    const write: ScriptedReply = {
      toolCalls: [{ id: 'call_w', name: 'write_file', arguments: '{"path":"out.txt","content":"hello"}' }],
    };
    const run = await tole(
      ['-p', 'write it', '--base-url', server.url, '--model', 'm'],
      [write, { text: 'I could not write it.' }],
    );

    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(dirs.root, 'out.txt'))).toBe(false);
    expect(run.stderr).toContain("--allow 'write_file:out.txt'");
    expect(run.stderr).toContain('--yes');
    const toolMessage = chatRequests(server)[1]?.body?.messages?.find((m) => m.role === 'tool');
    expect(String(toolMessage?.content)).toContain("--allow 'write_file:out.txt'");
  });

  it("--allow 'write_file:*' lets the write run", async () => {
    fresh();
    const write: ScriptedReply = {
      toolCalls: [{ id: 'call_w', name: 'write_file', arguments: '{"path":"out.txt","content":"hello"}' }],
    };
    const run = await tole(
      ['-p', 'write it', '--base-url', server.url, '--model', 'm', '--allow', 'write_file:*'],
      [write, { text: 'written' }],
    );

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('written\n');
    expect(readFileSync(join(dirs.root, 'out.txt'), 'utf8')).toBe('hello');
  });

  it('--yes with a Destructive bash command is still denied, and says so', async () => {
    fresh();
    mkdirSync(join(dirs.root, 'x'));
    writeFileSync(join(dirs.root, 'x', 'keep.txt'), 'keep');
    const rm: ScriptedReply = { toolCalls: [{ id: 'call_rm', name: 'bash', arguments: '{"command":"rm -rf x"}' }] };
    const run = await tole(
      ['-p', 'clean up', '--base-url', server.url, '--model', 'm', '--yes'],
      [rm, { text: 'could not' }],
    );

    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(dirs.root, 'x', 'keep.txt'), 'utf8')).toBe('keep');
    expect(run.stderr).toMatch(/rm -rf x.*Destructive/);
    expect(run.stderr).toMatch(/no flag or --allow rule allows/);
  });
});
