/**
 * The read-side commands of the built `dist/tole.js` after real headless runs against the local
 * chat server: `tole sessions [--all]`, `tole export --format md|json [-o FILE]`, `--help` and
 * `--version`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import { ensureBuilt, runBuiltTole } from '../support/built-tole';
import { echoReply, startChatServer, type ChatServer } from '../support/chat-server';
import type { ChildRun } from '../support/spawn-node';
import { tempDirForFile } from '../support/after-the-test';

let server: ChatServer;
const root = tempDirForFile('tole-listing-');
let env: NodeJS.ProcessEnv;
/** Two sessions are made here, one in `other`. */
let project: string;
let other: string;
let sessionsDir: string;
/** Made first: three turns of prompts later, plus a branch. */
let older: { id: string; path: string };
let newer: { id: string; path: string };
let elsewhere: { id: string; path: string };

function tole(args: readonly string[], cwd = project): Promise<ChildRun> {
  return runBuiltTole(args, { cwd, env });
}

async function turn(cwd: string, args: readonly string[]): Promise<{ id: string; path: string }> {
  const run = await tole([...args, '--base-url', server.url, '--model', 'priced-model'], cwd);
  expect(run.code, run.stderr).toBe(0);
  const id = /tole: session (\S+)/.exec(run.stderr)![1]!;
  return { id, path: join(sessionsDir, `${id}.jsonl`) };
}

beforeAll(async () => {
  ensureBuilt();
  // Every answer costs 1000 input and 500 output tokens: at 10 and 20 USD per million, $0.020.
  server = await startChatServer({
    respond: (request) => ({
      ...echoReply(request),
      usage: { prompt_tokens: 1000, completion_tokens: 500, total_tokens: 1500 },
    }),
  });
  project = join(root, 'project');
  other = join(root, 'other');
  mkdirSync(project);
  mkdirSync(other);
  mkdirSync(join(root, 'home'));
  sessionsDir = join(root, 'tole-home', 'sessions');
  env = { PATH: process.env.PATH, HOME: join(root, 'home'), TOLE_HOME: join(root, 'tole-home'), LANG: 'C.UTF-8' };
  const config = JSON.stringify({ pricing: { 'priced-model': { inputUsdPerMTok: 10, outputUsdPerMTok: 20 } } });
  // Pricing is the user's alone (a project's would be ignored): it goes in the user's config.
  mkdirSync(join(root, 'home', '.config', 'tole'), { recursive: true });
  writeFileSync(join(root, 'home', '.config', 'tole', 'config.json'), config);

  older = await turn(project, ['-p', 'the first question']);
  newer = await turn(project, ['-p', 'a second session']);
  await turn(project, ['-p', 'a follow-up', '--resume', older.id]);
  elsewhere = await turn(other, ['-p', 'from another directory']);

  // A branch from the first prompt, as the full screen makes one: a new entry on its own lane.
  const store = SessionStore.open(older.path, { clock: systemClock, random: seededRandom(7) });
  try {
    const first = [...store.tree.all()].find((entry) => entry.type === 'user')!;
    const id = store.newEntryId();
    store.commit([
      {
        kind: 'entry',
        timestamp: store.now(),
        id,
        parentId: first.id,
        type: 'user',
        payload: { text: 'the road not taken' },
      },
      { kind: 'register', op: 'set', namespace: 'lane.leaf', key: 'side', value: id },
    ]);
  } finally {
    store.close();
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** The rows of a listing, split on runs of two or more spaces, without the header. */
function rows(stdout: string): string[][] {
  const lines = stdout.trimEnd().split('\n');
  return lines.slice(1).map((line) => line.split(/ {2,}/));
}

describe.concurrent('tole sessions', () => {
  it("lists this directory's sessions newest first, with first prompt, entries, branches and cost", async () => {
    const run = await tole(['sessions']);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/^id +when \(UTC\) +entries +branches +cost +first prompt$/);
    const listed = rows(run.stdout);
    expect(listed.map((row) => row[0])).toEqual([newer.id, older.id]);
    // id, when, entries, branches, cost, first prompt
    expect(listed[0]!.slice(2)).toEqual(['2', '1', '$0.020', 'a second session']);
    expect(listed[1]!.slice(2)).toEqual(['5', '2', '$0.040', 'the first question']);
    expect(run.stdout).not.toContain(elsewhere.id);
  });

  it('--all lists every directory, with the directory', async () => {
    const run = await tole(['sessions', '--all']);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/first prompt +directory$/);
    const listed = rows(run.stdout);
    expect(listed.map((row) => row[0])).toEqual([elsewhere.id, newer.id, older.id]);
    expect(listed[0]!.slice(2)).toEqual(['2', '1', '$0.020', 'from another directory', other]);
    expect(listed[2]!.at(-1)).toBe(project);
  });

  it('in a directory with none, says so and how to see the others', async () => {
    const run = await tole(['sessions'], join(root, 'home'));

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`no sessions for ${join(root, 'home')} (tole sessions --all lists every directory)\n`);
  });
});

describe.concurrent('tole export', () => {
  it('--format md: the checked-out path, prompts and answers', async () => {
    const run = await tole(['export', older.id, '--format', 'md']);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`# tole session ${older.id}`);
    for (const text of ['the first question', 'echo: the first question', 'a follow-up', 'echo: a follow-up'])
      expect(run.stdout).toContain(text);
    expect(run.stdout).not.toContain('the road not taken');
  });

  it('--branch LANE exports that lane; md is the default format', async () => {
    const run = await tole(['export', older.id, '--branch', 'side']);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('the first question');
    expect(run.stdout).toContain('the road not taken');
    expect(run.stdout).not.toContain('a follow-up');
  });

  it('--format json is valid JSON holding every entry of the session', async () => {
    const run = await tole(['export', older.path, '--format', 'json']);

    expect(run.code, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout) as {
      header: { id: string };
      entries: { id: string }[];
      lanes: { lane: string }[];
      usage: unknown[];
    };
    expect(document.header.id).toBe(older.id);
    const store = SessionStore.open(older.path, { clock: systemClock, random: seededRandom(1), readOnly: true });
    try {
      const ids = [...store.tree.all()].map((entry) => entry.id);
      expect(document.entries.map((entry) => entry.id).sort()).toEqual([...ids].sort());
      expect(document.entries).toHaveLength(5);
      expect(document.usage).toHaveLength(store.usage.length);
    } finally {
      store.close();
    }
    expect(document.lanes.map((lane) => lane.lane).sort()).toEqual(['main', 'side']);
  });

  it('-o FILE writes the file, says so on stderr, and prints nothing', async () => {
    const [toFile, toStdout] = await Promise.all([
      tole(['export', newer.id, '--format', 'json', '-o', 'out.json']),
      tole(['export', newer.id, '--format', 'json']),
    ]);

    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.stdout).toBe('');
    expect(toFile.stderr).toBe('tole: wrote out.json\n');
    expect(readFileSync(join(project, 'out.json'), 'utf8')).toBe(toStdout.stdout);
  });
});

describe.concurrent('tole --help and --version', () => {
  it('--help lists every command and every flag the parser accepts', async () => {
    const run = await tole(['--help']);

    expect(run.code).toBe(0);
    const source = readFileSync(join(import.meta.dirname, '..', '..', 'src', 'cli', 'args.ts'), 'utf8');
    const flags = new Set([...source.matchAll(/'(--?[a-z][a-z-]*)'/g)].map((match) => match[1]!));
    expect(flags.size).toBeGreaterThan(20);
    const commands = /SUBCOMMANDS = new Set\(\[([^\]]*)\]/.exec(source)![1]!.match(/[a-z]+/g)!;
    expect(commands).toEqual(expect.arrayContaining(['sessions', 'check', 'export', 'convert']));
    const missing = [
      ...[...flags].map((flag) => ({ flag, pattern: new RegExp(`(^|[\\s,\\[])${flag}(?=[\\s,=\\]]|$)`, 'm') })),
      ...commands.map((command) => ({ flag: command, pattern: new RegExp(`^ +tole ${command}\\b`, 'm') })),
    ]
      .filter(({ pattern }) => !pattern.test(run.stdout))
      .map(({ flag }) => flag);
    expect(missing).toEqual([]);
  });

  it('-h is --help; --version and -v print the package version', async () => {
    const [long, short, version, v] = await Promise.all([
      tole(['--help']),
      tole(['-h']),
      tole(['--version']),
      tole(['-v']),
    ]);

    expect(short.stdout).toBe(long.stdout);
    for (const run of [version, v]) {
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`tole ${packageJson.version}\n`);
    }
  });
});
