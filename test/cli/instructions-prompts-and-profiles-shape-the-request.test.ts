/**
 * What a user sets (AGENTS.md files, `systemPrompt`/`prompt`, agent profiles, `generation`,
 * `limits.toolOutputCapBytes`) as the model sees it: `tole -p` run in process through `main`,
 * against the real local chat server, with HOME and the config dir in a temp directory. The
 * request bodies the server recorded are the proof.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import { INSTRUCTIONS_FILE_MAX_BYTES } from '../../src/cli/instructions';
import { startChatServer, type ChatServer, type RecordedRequest, type ScriptedReply } from '../support/chat-server';
import { tempDirForTest } from '../support/after-the-test';

let server: ChatServer;
beforeAll(async () => {
  server = await startChatServer({ defaultReply: { text: 'ok' } });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
});

interface Place {
  /** A repository (it has .git) holding the workspace two levels down. */
  readonly repo: string;
  readonly workspace: string;
  readonly home: string;
  /** tole's config dir: config.json, AGENTS.md, agents/. */
  readonly configDir: string;
  readonly env: NodeJS.ProcessEnv;
}

function place(): Place {
  const parent = tempDirForTest('tole-shape-');
  const repo = join(parent, 'repo');
  const workspace = join(repo, 'packages', 'app');
  const home = join(parent, 'home');
  const configDir = join(home, '.config', 'tole');
  for (const dir of [join(repo, '.git'), workspace, configDir]) mkdirSync(dir, { recursive: true });
  return {
    repo,
    workspace,
    home,
    configDir,
    // No sandbox probe (a bwrap process) per run: nothing here runs a command.
    env: {
      HOME: home,
      TOLE_HOME: join(home, '.tole'),
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      TOLE_NO_SANDBOX: '1',
    },
  };
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly sessionId: string | undefined;
}

async function tole(
  at: Place,
  args: readonly string[],
  replies: readonly ScriptedReply[] = [],
  baseUrl: string | null = server.url,
): Promise<Run> {
  server.push(...replies);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const code = await main({
    argv: [...args, ...(baseUrl === null ? [] : ['--base-url', baseUrl])],
    env: at.env,
    cwd: at.workspace,
    stdout,
    stderr,
  });
  return { code, stdout: out, stderr: err, sessionId: /tole: session (\S+)/.exec(err)?.[1] };
}

function chats(): RecordedRequest[] {
  return server.requests.filter((r) => r.path === '/v1/chat/completions');
}

function systemOf(request: RecordedRequest | undefined): string {
  const first = request?.body?.messages?.[0];
  expect(first?.role).toBe('system');
  return String(first?.content);
}

function toolNames(request: RecordedRequest | undefined): string[] {
  return ((request?.body?.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

describe('AGENTS.md instructions', () => {
  it('joins the global file and each AGENTS.md from the repository root down to the workspace, each under its path, and says so in the transcript', async () => {
    const at = place();
    writeFileSync(join(at.configDir, 'AGENTS.md'), 'GLOBAL: answer in English.');
    writeFileSync(join(at.repo, 'AGENTS.md'), 'REPO: run npm test before you finish.');
    writeFileSync(join(at.repo, 'packages', 'AGENTS.md'), 'PACKAGES: each package has its own tests.');
    writeFileSync(join(at.workspace, 'AGENTS.md'), 'APP: the app is written in TypeScript.');
    writeFileSync(join(at.repo, '..', 'AGENTS.md'), 'OUTSIDE: above the repository, never read.');
    const run = await tole(at, ['-p', 'hi', '--model', 'm']);
    expect(run.code, run.stderr).toBe(0);
    const system = systemOf(chats()[0]);
    expect(system).toMatch(/^You are tole/);
    const order = ['GLOBAL', 'REPO', 'PACKAGES', 'APP'].map((tag) => system.indexOf(`${tag}:`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(system).toContain(`## ${join(at.workspace, 'AGENTS.md')}`);
    expect(system).not.toContain('OUTSIDE');
    const session = readFileSync(join(at.env['TOLE_HOME']!, 'sessions', `${run.sessionId}.jsonl`), 'utf8');
    expect(session).toContain(`instructions loaded: ${join(at.configDir, 'AGENTS.md')}`);
  });

  it('caps a large file and says how much was left out', async () => {
    const at = place();
    writeFileSync(join(at.workspace, 'AGENTS.md'), `START ${'x'.repeat(INSTRUCTIONS_FILE_MAX_BYTES * 2)} END`);
    const run = await tole(at, ['-p', 'hi', '--model', 'm']);
    expect(run.code, run.stderr).toBe(0);
    const system = systemOf(chats()[0]);
    expect(system).toContain('START');
    expect(system).not.toContain('END');
    expect(system).toMatch(/\[\.\.\. \d+ more bytes of this file left out \.\.\.\]/);
  });
});

describe('systemPrompt and prompt', () => {
  it("systemPrompt replaces tole's, and prompt commands append their output, in order", async () => {
    const at = place();
    writeJson(join(at.configDir, 'config.json'), {
      systemPrompt: 'You are a terse reviewer.',
      prompt: ['echo first-part', 'printf "second %s" "$HOME"'],
    });
    const run = await tole(at, ['-p', 'hi', '--model', 'm']);
    expect(run.code, run.stderr).toBe(0);
    const system = systemOf(chats()[0]);
    expect(system).toMatch(/^You are a terse reviewer\./);
    expect(system).not.toContain('You are tole');
    expect(system).toMatch(new RegExp(`first-part\\nsecond ${at.home}$`));
  });

  it("prompt commands do not see the user's secrets or tole's provider key, unless the user's config passes one", async () => {
    const at = place();
    writeJson(join(at.configDir, 'config.json'), {
      prompt: ['printf "[%s|%s|%s]" "$OPENAI_API_KEY" "$GITHUB_TOKEN" "$MY_PASSWORD"'],
      passEnv: ['MY_PASSWORD'],
    });
    const env = { ...at.env, OPENAI_API_KEY: 'sk-secret-1', GITHUB_TOKEN: 'ghp-secret-2', MY_PASSWORD: 'passed-3' };
    const run = await tole({ ...at, env }, ['-p', 'hi', '--model', 'm']);
    expect(run.code, run.stderr).toBe(0);
    const system = systemOf(chats()[0]);
    expect(system).toContain('[||passed-3]');
    expect(system).not.toContain('secret');
  });

  it('a failing prompt command fails the start, naming the command and its stderr; nothing is sent', async () => {
    const at = place();
    writeJson(join(at.configDir, 'config.json'), { prompt: ['echo fine', 'echo "no such template" >&2; exit 3'] });
    const run = await tole(at, ['-p', 'hi', '--model', 'm']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'field "prompt": command "echo "no such template" >&2; exit 3" exited with 3: no such template',
    );
    expect(chats()).toHaveLength(0);
  });

  it("a project's tole.config.json cannot run prompt commands: they are ignored with a notice", async () => {
    const at = place();
    const marker = join(at.home, 'ran');
    writeJson(join(at.workspace, 'tole.config.json'), { prompt: [`touch ${marker}; echo injected`] });
    const run = await tole(at, ['-p', 'hi', '--model', 'm']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(systemOf(chats()[0])).not.toContain('injected');
    expect(run.stderr).toContain('field "prompt" runs commands, and this project\'s config is not trusted: ignored');
  });
});

describe('generation settings and the tool-output cap', () => {
  it("config and profile settings go out in the request body, the profile's over the config's", async () => {
    const at = place();
    writeJson(join(at.configDir, 'config.json'), {
      generation: { temperature: 0.2, topP: 0.9, maxOutputTokens: 1000, seed: 7, stop: 'END' },
    });
    writeJson(join(at.configDir, 'agents', 'precise.json'), { generation: { temperature: 0, reasoningEffort: 'low' } });
    expect((await tole(at, ['-p', 'hi', '--model', 'm'])).code).toBe(0);
    expect(chats()[0]?.body).toMatchObject({ temperature: 0.2, top_p: 0.9, max_tokens: 1000, seed: 7, stop: ['END'] });
    expect(chats()[0]?.body).not.toHaveProperty('reasoning_effort');
    expect((await tole(at, ['-p', 'hi', '--model', 'm', '--agent', 'precise'])).code).toBe(0);
    expect(chats()[1]?.body).toMatchObject({
      temperature: 0,
      top_p: 0.9,
      max_tokens: 1000,
      seed: 7,
      stop: ['END'],
      reasoning_effort: 'low',
    });
  });

  it('a bad setting is a config error naming it; a setting the server refuses is named in the error', async () => {
    const at = place();
    writeJson(join(at.configDir, 'config.json'), { generation: { temperature: 3 } });
    const bad = await tole(at, ['-p', 'hi', '--model', 'm']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('field "generation.temperature"');
    writeJson(join(at.configDir, 'config.json'), { generation: { temperature: 0.5 } });
    const refusal: ScriptedReply = {
      error: {
        status: 400,
        body: {
          error: {
            message:
              "Unsupported value: 'temperature' does not support 0.5 with this model. Only the default (1) value is supported.",
            type: 'invalid_request_error',
            param: 'temperature',
            code: 'unsupported_value',
          },
        },
      },
    };
    const refused = await tole(at, ['-p', 'hi', '--model', 'm'], [refusal]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the server refused the generation setting temperature (sent as "temperature")');
    expect(refused.stderr).toContain('remove "temperature" from "generation" in the config');
  });

  it('limits.toolOutputCapBytes caps what the model reads of one tool result', async () => {
    const at = place();
    writeJson(join(at.configDir, 'config.json'), { limits: { toolOutputCapBytes: 2048 } });
    writeFileSync(
      join(at.workspace, 'big.txt'),
      Array.from({ length: 2000 }, (_, i) => `line ${i} of a long file`).join('\n'),
    );
    const run = await tole(
      at,
      ['-p', 'read big.txt', '--model', 'm'],
      [{ toolCalls: [{ name: 'read_file', arguments: '{"path":"big.txt"}' }] }, { text: 'read it' }],
    );
    expect(run.code, run.stderr).toBe(0);
    const result = chats()[1]?.body?.messages?.find((m) => m.role === 'tool');
    expect(Buffer.byteLength(String(result?.content), 'utf8')).toBeLessThanOrEqual(2048);
    expect(String(result?.content)).toMatch(/elided/);
  });
});

describe('limits.readConcurrency', () => {
  /** `type callId` of the tool records of the run's session file, in file order (a read-only open replays it). */
  function toolRecords(at: Place, sessionId: string): string[] {
    const dir = join(at.home, '.tole', 'sessions');
    const file = readdirSync(dir).find((name) => name.includes(sessionId));
    const store = SessionStore.open(join(dir, file!), { clock: systemClock, random: seededRandom(5), readOnly: true });
    try {
      return [...store.tree.all()]
        .sort((x, y) => x.seq - y.seq)
        .flatMap((e) =>
          e.type === 'tool_intent' || e.type === 'tool_result' ? [`${e.type} ${e.payload.callId}`] : [],
        );
    } finally {
      store.close();
    }
  }

  const twoReads: ScriptedReply[] = [
    {
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { id: 'call_b', name: 'read_file', arguments: '{"path":"b.txt"}' },
      ],
    },
    { text: 'read both' },
  ];

  it('two reads of one reply run side by side by default, and one at a time with 1', async () => {
    const at = place();
    writeFileSync(join(at.workspace, 'a.txt'), 'a');
    writeFileSync(join(at.workspace, 'b.txt'), 'b');
    const side = await tole(at, ['-p', 'read both', '--model', 'm'], twoReads);
    expect(side.code, side.stderr).toBe(0);
    expect(toolRecords(at, side.sessionId!)).toEqual([
      'tool_intent call_a',
      'tool_intent call_b',
      'tool_result call_a',
      'tool_result call_b',
    ]);

    writeJson(join(at.configDir, 'config.json'), { limits: { readConcurrency: 1 } });
    const alone = await tole(at, ['-p', 'read both', '--model', 'm'], twoReads);
    expect(alone.code, alone.stderr).toBe(0);
    expect(toolRecords(at, alone.sessionId!)).toEqual([
      'tool_intent call_a',
      'tool_result call_a',
      'tool_intent call_b',
      'tool_result call_b',
    ]);
  });
});

describe('agent profiles', () => {
  it('--agent limits the tools offered and sets the model; resume keeps the profile and the model', async () => {
    const at = place();
    writeJson(join(at.configDir, 'agents', 'reader.json'), {
      model: 'reader-model',
      tools: ['read_file', 'grep'],
      prompt: 'Only read; never change files.',
    });
    const first = await tole(at, ['-p', 'look around', '--agent', 'reader']);
    expect(first.code, first.stderr).toBe(0);
    expect(chats()[0]?.body?.model).toBe('reader-model');
    expect(toolNames(chats()[0])).toEqual(['read_file', 'grep']);
    expect(systemOf(chats()[0])).toMatch(/Only read; never change files\.$/);
    const again = await tole(at, ['-p', 'and again', '--resume', first.sessionId!]);
    expect(again.code, again.stderr).toBe(0);
    expect(chats()[1]?.body?.model).toBe('reader-model');
    expect(toolNames(chats()[1])).toEqual(['read_file', 'grep']);
    const plain = await tole(at, ['-p', 'new session']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(toolNames(chats()[2])).toContain('write_file');
  });

  it('a tool the profile leaves out is refused if the model calls it anyway', async () => {
    const at = place();
    writeJson(join(at.configDir, 'agents', 'reader.json'), { tools: ['read_file'] });
    writeFileSync(join(at.workspace, 'a.txt'), 'x');
    const run = await tole(
      at,
      ['-p', 'go', '--model', 'm', '--agent', 'reader'],
      [{ toolCalls: [{ name: 'list_dir', arguments: '{"path":"."}' }] }, { text: 'done' }],
    );
    expect(run.code, run.stderr).toBe(0);
    const result = chats()[1]?.body?.messages?.find((m) => m.role === 'tool');
    expect(String(result?.content)).toContain('Unknown tool "list_dir". Available tools: read_file.');
  });

  it('an unknown profile, or a profile naming a tool tole does not have, fails the start clearly', async () => {
    const at = place();
    writeJson(join(at.configDir, 'agents', 'typo.json'), { tools: ['read_fil'] });
    const missing = await tole(at, ['-p', 'hi', '--model', 'm', '--agent', 'nobody']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no agent profile "nobody" (known: typo)');
    const typo = await tole(at, ['-p', 'hi', '--model', 'm', '--agent', 'typo']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('field "tools": unknown tool "read_fil"');
    expect(chats()).toHaveLength(0);
  });

  it("a profile's provider is used in place of the config's, with that provider's model", async () => {
    const other = await startChatServer({ defaultReply: { text: 'from the other server' } });
    try {
      const at = place();
      writeJson(join(at.configDir, 'config.json'), {
        provider: 'first',
        providers: {
          first: { baseUrl: server.url, model: 'first-model' },
          second: { baseUrl: other.url, model: 'second-model' },
        },
      });
      writeJson(join(at.configDir, 'agents', 'elsewhere.json'), { provider: 'second', model: 'second-model' });
      const plain = await tole(at, ['-p', 'hi'], [], null);
      expect(plain.code, plain.stderr).toBe(0);
      expect(chats()[0]?.body?.model).toBe('first-model');
      const moved = await tole(at, ['-p', 'hi', '--agent', 'elsewhere'], [], null);
      expect(moved.code, moved.stderr).toBe(0);
      expect(moved.stdout).toBe('from the other server\n');
      expect(other.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.body?.model).toBe('second-model');
      expect(chats()).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('a sub-agent whose profile names a provider runs on that provider, with its key and model; one whose provider has no key is not started', async () => {
    const other = await startChatServer({ defaultReply: { text: 'from the other server' } });
    try {
      const at = place();
      writeJson(join(at.configDir, 'config.json'), {
        provider: 'first',
        providers: {
          first: { baseUrl: server.url, model: 'first-model', apiKeyEnv: 'FIRST_KEY' },
          second: { baseUrl: other.url, model: 'second-model', apiKeyEnv: 'SECOND_KEY' },
          third: { baseUrl: 'https://third.invalid/v1', apiKeyEnv: 'THIRD_KEY' },
          plain: { baseUrl: 'http://10.0.0.9/v1', apiKeyEnv: 'PLAIN_KEY' },
        },
      });
      writeJson(join(at.configDir, 'agents', 'overhttp.json'), { provider: 'plain' });
      writeJson(join(at.configDir, 'agents', 'nowhere.json'), { provider: 'fourth' });
      writeJson(join(at.configDir, 'agents', 'elsewhere.json'), { provider: 'second' });
      writeJson(join(at.configDir, 'agents', 'keyless.json'), { provider: 'third' });
      const env = { ...at.env, FIRST_KEY: 'first-secret', SECOND_KEY: 'second-secret', PLAIN_KEY: 'plain-secret' };
      const calls = [
        { id: 'call_a', name: 'task', arguments: JSON.stringify({ prompt: 'check the parser', agent: 'elsewhere' }) },
        { id: 'call_b', name: 'task', arguments: JSON.stringify({ prompt: 'check the lexer', agent: 'keyless' }) },
        { id: 'call_c', name: 'task', arguments: JSON.stringify({ prompt: 'check the docs', agent: 'overhttp' }) },
        { id: 'call_d', name: 'task', arguments: JSON.stringify({ prompt: 'check the tests', agent: 'nowhere' }) },
      ];
      const run = await tole({ ...at, env }, ['-p', 'delegate'], [{ toolCalls: calls }, { text: 'parent done' }], null);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('parent done\n');

      const childCalls = other.requests.filter((r) => r.path === '/v1/chat/completions');
      expect(childCalls).toHaveLength(1);
      expect(childCalls[0]!.body?.model).toBe('second-model');
      expect(childCalls[0]!.headers['authorization']).toBe('Bearer second-secret');
      expect(childCalls[0]!.body?.messages?.find((m) => m.role === 'user')?.content).toBe('check the parser');
      // The parent's two calls stay on its own provider, with its own key; no child asked it.
      expect(chats().map((r) => r.body?.model)).toEqual(['first-model', 'first-model']);
      expect(chats().map((r) => r.headers['authorization'])).toEqual(['Bearer first-secret', 'Bearer first-secret']);
      const results = chats()[1]!
        .body!.messages!.filter((m) => m.role === 'tool')
        .map((m) => String(m.content));
      expect(results[0]).toMatch(/^from the other server\n\n\(sub-agent elsewhere, session /);
      expect(results[1]).toBe(
        `the sub-agent was not started: the agent profile ${join(at.configDir, 'agents', 'keyless.json')} names provider "third", which needs a key: set THIRD_KEY`,
      );
      expect(results[2]).toMatch(
        /^the sub-agent was not started: .* names provider "plain": the key in PLAIN_KEY is not sent to http:\/\/10\.0\.0\.9\/v1/,
      );
      expect(results[2]).not.toContain('plain-secret');
      expect(results[3]).toMatch(/^the sub-agent was not started: .*unknown provider "fourth"/);
    } finally {
      await other.close();
    }
  });

  it("a project's .tole/agents profiles are not loaded while the project is not trusted", async () => {
    const at = place();
    writeJson(join(at.workspace, '.tole', 'agents', 'sneaky.json'), { prompt: ['echo sneaky'] });
    const run = await tole(at, ['-p', 'hi', '--model', 'm', '--agent', 'sneaky']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no agent profile "sneaky"');
    expect(chats()).toHaveLength(0);
  });
});
