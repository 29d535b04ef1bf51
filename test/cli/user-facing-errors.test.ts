/**
 * Every error a user meets, from the built `dist/tole.js` run as a child process with HOME and
 * TOLE_HOME in temp directories, against the real local chat server: one line on stderr that says
 * what to do, and the exit code the spec gives (1 runtime error, 2 usage or config error).
 *
 * What a command names that is not there (a session, a lane, an entry) exits 1, like any other
 * runtime failure; a command line or config that is wrong in itself exits 2.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuiltTole } from '../support/built-tole';
import {
  echoReply,
  startChatServer,
  type ChatServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../support/chat-server';
import type { ChildRun } from '../support/spawn-node';
import { holdingTheLock } from '../support/lock-holder';
import { closedPort } from '../support/closed-port';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import { append } from '../tui/session-fixture';
import { tempDirForFile } from '../support/after-the-test';

let server: ChatServer;
/** The server's answers depend on the request alone, so that children may run side by side. */
function respond(request: RecordedRequest): ScriptedReply {
  const model = request.body?.model;
  if (model === 'missing-model') {
    return {
      error: {
        status: 404,
        body: {
          error: {
            message: 'The model `missing-model` does not exist',
            type: 'invalid_request_error',
            code: 'model_not_found',
          },
        },
      },
    };
  }
  if (model === 'keyed' && request.headers['authorization'] !== 'Bearer sk-good') {
    return {
      error: {
        status: 401,
        body: {
          error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
        },
      },
    };
  }
  return echoReply(request);
}

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({ respond });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

interface Place {
  /** Where tole runs (its cwd). */
  readonly cwd: string;
  readonly home: string;
  readonly sessions: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Every test's place, in one directory removed when the file ends: the tests run side by side
 * (describe.concurrent), where a directory per test could be removed as another test ended.
 */
const places = tempDirForFile('tole-errors-');
let placed = 0;

/** A fresh HOME, TOLE_HOME and working directory; no key in the environment. */
function place(): Place {
  placed += 1;
  const root = join(places, String(placed));
  mkdirSync(root);
  const cwd = join(root, 'project');
  const home = join(root, 'home');
  mkdirSync(cwd);
  mkdirSync(home);
  const toleHome = join(root, 'tole-home');
  return {
    cwd,
    home,
    sessions: join(toleHome, 'sessions'),
    env: { PATH: process.env.PATH, HOME: home, TOLE_HOME: toleHome, LANG: 'C.UTF-8' },
  };
}

function tole(at: Place, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ChildRun> {
  return runBuiltTole(args, { cwd: at.cwd, env: { ...at.env, ...env } });
}

/** Flags that aim tole at the local chat server. */
function local(model = 'm'): string[] {
  return ['--base-url', server.url, '--model', model];
}

/** stderr lines but the trailing `tole: session ID`. */
function reasons(run: ChildRun): string[] {
  return run.stderr.split('\n').filter((line) => line !== '' && !/^tole: session \S+$/.test(line));
}

/** The one line a failure prints; fails the test when there are more. */
function oneLine(run: ChildRun): string {
  const lines = reasons(run);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^tole: /);
  return lines[0]!;
}

function sessionFiles(at: Place): string[] {
  return existsSync(at.sessions) ? readdirSync(at.sessions).filter((name) => name.endsWith('.jsonl')) : [];
}

/**
 * A session as finished headless turns leave it (each prompt and its echoed answer), written in
 * this process through the store the built tole runs: the tests are about what tole says of a
 * session it cannot open or has not got, and a tole run to make each one only cost its start.
 */
function storedSession(at: Place, ...prompts: string[]): { id: string; path: string } {
  mkdirSync(at.sessions, { recursive: true });
  const store = SessionStore.create(at.sessions, { clock: systemClock, random: seededRandom(7), cwd: at.cwd });
  for (const prompt of prompts) {
    append(store, 'user', { text: prompt });
    append(store, 'assistant', { text: `echo: ${prompt}`, toolCalls: [], model: 'm', finishReason: 'stop' });
  }
  store.close();
  return { id: store.header.id, path: store.path };
}

async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}/v1`;
}

describe.concurrent('provider errors in headless mode', () => {
  it('no key for a remote provider: exit 2, names the variable and the local-server way, makes no session', async () => {
    const at = place();
    const run = await tole(at, ['-p', 'hi']);

    expect(run.code).toBe(2);
    const line = oneLine(run);
    expect(line).toContain('https://api.openai.com/v1');
    expect(line).toContain('set OPENAI_API_KEY');
    expect(line).toMatch(/--base-url .*Ollama/);
    expect(sessionFiles(at)).toEqual([]);
  });

  it('no key for a preset provider names that provider’s variable', async () => {
    const at = place();
    writeFileSync(join(at.cwd, 'tole.config.json'), JSON.stringify({ provider: 'openrouter' }));
    const run = await tole(at, ['-p', 'hi', '--trust']);

    expect(run.code).toBe(2);
    expect(oneLine(run)).toContain('set OPENROUTER_API_KEY');
  });

  it('server down: exit 1, names the URL and says to check that it is running', async () => {
    const at = place();
    writeFileSync(join(at.cwd, 'tole.config.json'), JSON.stringify({ limits: { maxAttempts: 1 } }));
    const url = await closedPortUrl();
    const run = await tole(at, ['-p', 'hi', '--base-url', url, '--model', 'm']);

    expect(run.code).toBe(1);
    const line = oneLine(run);
    expect(line).toContain(`could not reach ${url}`);
    expect(line).toMatch(/is the server at \S+ running\?/);
  });

  it('model not found (404): exit 1, says to check --model and names no model the server did not', async () => {
    const at = place();
    const run = await tole(at, ['-p', 'hi', ...local('missing-model')]);

    expect(run.code).toBe(1);
    const line = oneLine(run);
    expect(line).toContain('missing-model');
    expect(line).toContain('check --model');
    expect(line).toContain(server.url);
    expect(line).not.toMatch(/gpt-|llama|claude|gemini|tole-test-model/i);
  });

  it('401 with a key from OPENAI_API_KEY: exit 1, says the server refused the key in OPENAI_API_KEY', async () => {
    const at = place();
    const run = await tole(at, ['-p', 'hi', ...local('keyed')], { OPENAI_API_KEY: 'sk-wrong' });

    expect(run.code).toBe(1);
    const line = oneLine(run);
    expect(line).toMatch(/^tole: 401 /);
    expect(line).toContain('refused the key in OPENAI_API_KEY');
  });

  it("401 from a configured provider names that provider's key variable", async () => {
    const at = place();
    const config = {
      provider: 'corp',
      providers: { corp: { baseUrl: server.url, apiKeyEnv: 'CORP_KEY', model: 'keyed' } },
    };
    writeFileSync(join(at.cwd, 'tole.config.json'), JSON.stringify(config));
    const run = await tole(at, ['-p', 'hi', '--trust'], { CORP_KEY: 'sk-wrong' });

    expect(run.code).toBe(1);
    expect(oneLine(run)).toContain('refused the key in CORP_KEY');
  });

  it('401 when no key was sent says which variable to set', async () => {
    const at = place();
    const run = await tole(at, ['-p', 'hi', ...local('keyed')]);

    expect(run.code).toBe(1);
    expect(oneLine(run)).toContain('none was sent: set OPENAI_API_KEY');
  });

  it('the same key, when right, gets an answer (the 401 above is the key, not the server)', async () => {
    const at = place();
    const run = await tole(at, ['-p', 'hi', ...local('keyed')], { OPENAI_API_KEY: 'sk-good' });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('echo: hi\n');
  });
});

describe.concurrent('sessions that cannot be opened', () => {
  it('locked by another tole: -p exits 1 naming the pid and --read-only; export and sessions still read it', async () => {
    const at = place();
    const { id, path } = storedSession(at, 'first words');
    const holder = await holdingTheLock(path, 30_000);
    try {
      const pid = holder.child.pid!;

      const [turn, exported, listed] = await Promise.all([
        tole(at, ['-p', 'more', '--resume', id, ...local()]),
        tole(at, ['export', id]),
        tole(at, ['sessions']),
      ]);

      expect(turn.code).toBe(1);
      const line = oneLine(turn);
      expect(line).toContain(`locked by pid ${pid}`);
      expect(line).toContain('--read-only');
      expect(line).toContain(`tole export ${path}`);

      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toContain('first words');
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain(id);
    } finally {
      holder.child.kill('SIGKILL');
      await holder.done;
    }
  });

  it('corrupt at line N: exit 1 naming the file and the line; the recovery it gives works', async () => {
    const at = place();
    const { id, path } = storedSession(at, 'one', 'two');
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.length).toBeGreaterThan(4);
    lines[2] = lines[2]!.replace('"kind"', '"kinD"');
    writeFileSync(path, lines.join('\n'));

    const [turn, check, exported] = await Promise.all([
      tole(at, ['-p', 'three', '--resume', id, ...local()]),
      tole(at, ['check', path]),
      tole(at, ['export', id]),
    ]);

    expect(turn.code).toBe(1);
    const line = oneLine(turn);
    expect(line).toContain(`${path}: line 3:`);
    expect(line).toContain(`head -n 2 ${path} > recovered.jsonl`);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/at line 3/);
    expect(exported.code).toBe(1);
    expect(oneLine(exported)).toContain(`${path}: line 3:`);

    // Follow the advice: what came before the bad line is a sound session that takes a turn.
    writeFileSync(join(at.cwd, 'recovered.jsonl'), `${lines.slice(0, 2).join('\n')}\n`);
    const recovered = await tole(at, ['check', 'recovered.jsonl']);
    expect(recovered.code, recovered.stdout).toBe(0);
    const resumed = await tole(at, ['-p', 'three', '--resume', 'recovered.jsonl', ...local()]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('echo: three\n');
  });

  it('storage version newer than this tole: exit 1, says to upgrade tole', async () => {
    const at = place();
    const { id, path } = storedSession(at, 'one');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[0] = lines[0]!.replace(/"storageVersion":\d+/, '"storageVersion":99');
    writeFileSync(path, lines.join('\n'));

    const [turn, check] = await Promise.all([
      tole(at, ['-p', 'more', '--resume', id, ...local()]),
      tole(at, ['check', path]),
    ]);

    expect(turn.code).toBe(1);
    const line = oneLine(turn);
    expect(line).toContain(path);
    expect(line).toMatch(/storage version 99 is newer than this tole .*upgrade tole/);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/upgrade tole/);
  });
});

describe.concurrent('config errors: exit 2, naming the file, the field and what was expected', () => {
  const cases: readonly {
    name: string;
    content: string;
    expected: readonly (string | RegExp)[];
    flags?: readonly string[];
  }[] = [
    {
      name: 'a wrong type',
      content: '{"limits": {"maxSteps": "many"}}',
      expected: ['field "limits.maxSteps"', 'expected number'],
    },
    {
      name: 'a number out of range',
      content: '{"limits": {"maxSteps": 0}}',
      expected: ['field "limits.maxSteps"', '>=1'],
    },
    { name: 'not JSON', content: '{"model": ', expected: ['not valid JSON'] },
    {
      name: 'an unknown provider',
      content: '{"provider": "nope"}',
      expected: ['field "provider"', 'unknown provider "nope"', /known: .*ollama/],
      flags: ['--trust'],
    },
    {
      name: 'a misspelt field',
      content: '{"modle": "x"}',
      expected: ['field "modle" is not a config field', /known here: .*\bmodel\b/],
    },
    {
      name: 'a misspelt nested field',
      content: '{"limits": {"maxStep": 3}}',
      expected: ['field "limits.maxStep" is not a config field', /known here: .*maxSteps/],
    },
    {
      name: 'a base URL that is not one',
      content: '{"baseUrl": "localhost:11434"}',
      expected: ['field "baseUrl"', 'expected an http(s) URL such as http://'],
    },
    { name: 'an array for the whole file', content: '[]', expected: ['expected object'] },
  ];

  it.each(cases)('$name in tole.config.json', async ({ content, expected, flags }) => {
    const at = place();
    const file = join(at.cwd, 'tole.config.json');
    writeFileSync(file, content);
    const run = await tole(at, ['-p', 'hi', ...local(), ...(flags ?? [])]);

    expect(run.code).toBe(2);
    const line = oneLine(run);
    expect(line).toContain(`config ${file}:`);
    for (const part of expected)
      expect(line).toMatch(typeof part === 'string' ? new RegExp(part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : part);
    expect(sessionFiles(at)).toEqual([]);
  });

  it('a bad user config names the user config file, for the subcommands too', async () => {
    const at = place();
    const file = join(at.home, '.config', 'tole', 'config.json');
    mkdirSync(join(at.home, '.config', 'tole'), { recursive: true });
    writeFileSync(file, '{"theme": 3}');
    const [turn, sessions] = await Promise.all([tole(at, ['-p', 'hi', ...local()]), tole(at, ['sessions'])]);

    for (const run of [turn, sessions]) {
      expect(run.code).toBe(2);
      expect(oneLine(run)).toContain(`config ${file}: field "theme": Invalid input: expected string`);
    }
  });

  it('--config FILE that is not there', async () => {
    const at = place();
    const run = await tole(at, ['-p', 'hi', '--config', 'nowhere.json', ...local()]);

    expect(run.code).toBe(2);
    expect(oneLine(run)).toBe(`tole: config ${join(at.cwd, 'nowhere.json')}: file not found`);
  });
});

describe.concurrent('usage errors: exit 2 with the right form of the command', () => {
  const cases: readonly { args: readonly string[]; says: string }[] = [
    { args: ['-p', 'hi', '--frobnicate'], says: 'unknown flag --frobnicate (see tole --help)' },
    { args: ['-p'], says: '-p needs a value: -p PROMPT' },
    { args: ['-p', 'hi', '--model'], says: '--model needs a value: --model NAME' },
    { args: ['-p', 'hi', '--output', 'xml'], says: '--output must be text or json, not "xml"' },
    { args: ['-p', 'hi', '--output=xml'], says: '--output must be text or json, not "xml"' },
    { args: ['-p', ''], says: '-p needs a prompt: tole -p "what to do"' },
    {
      args: ['-p', 'fix', 'the', 'tests'],
      says: 'unexpected argument "the": a prompt of several words goes in quotes, tole -p "fix the tests"',
    },
    { args: ['-p', 'hi', '--resume'], says: '--resume with -p needs a session: tole -p PROMPT --resume ID|PATH' },
    { args: ['-p', 'hi', '-c', '--resume', 'x'], says: 'use either -c or --resume, not both' },
    { args: ['-p', 'hi', '--read-only', '--resume', 'x'], says: 'leave out --read-only' },
    { args: ['-p', 'hi', '--storage', 'csv'], says: '--storage must be jsonl or sqlite, not "csv"' },
    { args: ['frobnicate'], says: 'unknown command "frobnicate" (see tole --help)' },
    { args: ['check'], says: 'tole check needs a session file: tole check PATH' },
    { args: ['check', 'a.jsonl', 'b.jsonl'], says: 'unexpected argument "b.jsonl" after tole check PATH' },
    { args: ['sessions', 'extra'], says: 'unexpected argument "extra" after tole sessions' },
    { args: ['export'], says: 'tole export needs a session: tole export ID|PATH --format md|json' },
    { args: ['export', 'some-id', '--format', 'pdf'], says: '--format must be md or json, not "pdf"' },
    {
      args: ['export', 'some-id', '--format', 'json', '--branch', 'main'],
      says: '--branch and --entry go with --format md',
    },
    { args: ['convert', 'x.jsonl'], says: 'tole convert PATH --to sqlite|jsonl' },
    { args: ['convert', 'x.jsonl', '--to', 'csv'], says: '--to must be sqlite or jsonl, not "csv"' },
  ];

  it.each(cases)('tole $args', async ({ args, says }) => {
    const at = place();
    const run = await tole(at, args);

    expect(run.code, run.stderr).toBe(2);
    expect(oneLine(run)).toContain(says);
    expect(run.stdout).toBe('');
    expect(sessionFiles(at)).toEqual([]);
  });

  it('an --allow rule for a tool that does not exist names the flag and the tools there are', async () => {
    const at = place();
    const run = await tole(at, ['-p', 'hi', '--allow', 'wirte_file:*', ...local()]);

    expect(run.code).toBe(2);
    const line = oneLine(run);
    expect(line).toMatch(/^tole: --allow: /);
    expect(line).toContain('there is no tool named "wirte_file"');
    expect(line).toMatch(/known tools: .*write_file/);
  });
});

describe.concurrent('what a command names is not there: exit 1, saying how to list what is', () => {
  it('--resume of a missing session, headless and full screen, makes no session', async () => {
    const at = place();
    const [headless, screen] = await Promise.all([
      tole(at, ['-p', 'hi', '--resume', 'nosuch', ...local()]),
      tole(at, ['--resume', 'nosuch']),
    ]);

    for (const run of [headless, screen]) {
      expect(run.code).toBe(1);
      const line = oneLine(run);
      expect(line).toContain('no session "nosuch"');
      expect(line).toContain('list them with tole sessions');
    }
    expect(sessionFiles(at)).toEqual([]);
  });

  it('-c in a directory with no sessions, headless and full screen, says so', async () => {
    const at = place();
    storedSession({ ...at, cwd: at.home }, 'elsewhere');
    const [headless, screen] = await Promise.all([tole(at, ['-c', '-p', 'hi', ...local()]), tole(at, ['-c'])]);

    for (const run of [headless, screen]) {
      expect(run.code).toBe(1);
      const line = oneLine(run);
      expect(line).toContain(`no session to continue in ${at.cwd}`);
      expect(line).toContain('tole sessions --all');
    }
    expect(sessionFiles(at)).toHaveLength(1);
  });

  it('export of a missing session, or of a lane or entry it does not have', async () => {
    const at = place();
    const { id } = storedSession(at, 'one');
    const [session, lane, entry] = await Promise.all([
      tole(at, ['export', 'nosuch']),
      tole(at, ['export', id, '--branch', 'nolane']),
      tole(at, ['export', id, '--entry', 'noentry']),
    ]);

    expect(session.code).toBe(1);
    expect(oneLine(session)).toContain('no session "nosuch"; list them with tole sessions');
    expect(lane.code).toBe(1);
    expect(oneLine(lane)).toBe('tole: no lane "nolane" (lanes: main)');
    expect(entry.code).toBe(1);
    expect(oneLine(entry)).toBe(
      `tole: no entry noentry in this session: tole export ${id} --format json lists every entry's id`,
    );
  });

  it('tole check of a file that is not there', async () => {
    const at = place();
    const run = await tole(at, ['check', 'nosuch.jsonl']);

    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`no session file at ${join(at.cwd, 'nosuch.jsonl')}`);
  });

  it('tole without a terminal points at -p and makes no session file', async () => {
    const at = place();
    const run = await tole(at, [...local()]);

    expect(run.code).toBe(1);
    expect(oneLine(run)).toContain('needs a terminal');
    expect(oneLine(run)).toContain('tole -p PROMPT');
    expect(sessionFiles(at)).toEqual([]);
  });
});
