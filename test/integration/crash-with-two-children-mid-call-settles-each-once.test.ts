/**
 * The built tole, killed with SIGKILL while two sub-agents are in flight: each child has run its
 * side effect (a shell command appending to a file) and is waiting on its next model call. The
 * next `tole -p --resume` goes on with each child from its own file and settles each parent call
 * once with that child's final answer; no side effect runs twice. A kill at a fault point of the
 * effect sandwich inside a child (TOLE_CRASH_AT) is resumed the same way.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import type { Entry } from '../../src/core/tree/entry-types';
import { ensureBuilt, runBuiltTole, startBuiltTole } from '../support/built-tole';
import type { RecordedRequest, ScriptedReply } from '../support/chat-server';
import { chatRequests, entriesOfType, type TempDirs } from '../support/agent-fixtures';
import { builtToleDirs, crashFixture } from '../support/crash-fixture';
import { waitFor } from '../support/process-groups';

let route: (request: RecordedRequest) => ScriptedReply;

const crash = crashFixture({ respond: (request) => route(request) });

beforeAll(() => {
  ensureBuilt();
});

type Message = { readonly role: string; readonly content?: unknown };

function firstUser(request: RecordedRequest): string {
  const found = ((request.body?.messages ?? []) as Message[]).find((m) => m.role === 'user');
  return typeof found?.content === 'string' ? found.content : '';
}

function toolMessages(request: RecordedRequest): number {
  return ((request.body?.messages ?? []) as Message[]).filter((m) => m.role === 'tool').length;
}

const PARENT = 'split the work';
const COMMANDS = { a: 'echo a >> count.txt', b: 'echo b >> count.txt' } as const;

function setUp(): { dirs: TempDirs; env: NodeJS.ProcessEnv; sessions: string; args: string[] } {
  const { dirs, env, sessions } = builtToleDirs('tole-task-crash-');
  writeFileSync(join(dirs.root, 'count.txt'), '');
  return {
    dirs,
    env,
    sessions,
    args: [
      '--base-url',
      crash.server.url,
      '--model',
      'm',
      '--allow',
      `bash:${COMMANDS.a}`,
      '--allow',
      `bash:${COMMANDS.b}`,
    ],
  };
}

/** The parent delegates to two children; each child runs its command, then answers (or hangs, while `hang`). */
function script(hang: () => boolean): (request: RecordedRequest) => ScriptedReply {
  return (request) => {
    const prompt = firstUser(request);
    if (prompt === PARENT)
      return toolMessages(request) === 0
        ? {
            toolCalls: [
              { id: 'call_a', name: 'task', arguments: JSON.stringify({ prompt: 'child a' }) },
              { id: 'call_b', name: 'task', arguments: JSON.stringify({ prompt: 'child b' }) },
            ],
          }
        : { text: 'parent carried on' };
    const which = prompt === 'child a' ? 'a' : 'b';
    if (toolMessages(request) === 0)
      return { toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command: COMMANDS[which] }) }] };
    return hang() ? { hangMs: 30_000 } : { text: `child ${which} done` };
  };
}

function sessionFiles(dir: string): { parent: string; children: string[] } {
  const paths = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(dir, name));
  const headers = paths.map((path) => ({ path, parent: readStore(path, (s) => s.header.parent) }));
  return {
    parent: headers.find((h) => h.parent === undefined)!.path,
    children: headers.filter((h) => h.parent !== undefined).map((h) => h.path),
  };
}

function readStore<T>(path: string, read: (store: SessionStore) => T): T {
  const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(5), readOnly: true });
  try {
    return read(store);
  } finally {
    store.close();
  }
}

function results(path: string): Entry<'tool_result'>['payload'][] {
  return readStore(path, (store) => entriesOfType(store, 'tool_result').map((e) => e.payload));
}

/**
 * `tole check PATH`, run through the command line's own code in this process (the crash and the
 * resume are the built tole's; a process of its own per check only cost its start).
 */
async function check(path: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let output = '';
  stdout.on('data', (chunk) => (output += String(chunk)));
  stderr.on('data', (chunk) => (output += String(chunk)));
  const code = await main({ argv: ['check', path], env, cwd, stdout, stderr });
  return { code, output };
}

function idOf(path: string): string {
  return path
    .split('/')
    .at(-1)!
    .replace(/\.jsonl$/, '');
}

async function resumeAndCheck(setup: ReturnType<typeof setUp>): Promise<void> {
  const { dirs, env, sessions, args } = setup;
  const { parent, children } = sessionFiles(sessions);
  expect(children).toHaveLength(2);
  const resumed = await runBuiltTole(['-p', 'go on', '--resume', idOf(parent), ...args], {
    cwd: dirs.root,
    env,
    timeoutMs: 60_000,
  });
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stdout).toBe('parent carried on\n');
  // Each child's side effect ran once.
  expect(readFileSync(join(dirs.root, 'count.txt'), 'utf8').split('\n').filter(Boolean).sort()).toEqual(['a', 'b']);
  // Each parent call settled once, in call order, with its own child's answer.
  const settled = results(parent);
  expect(settled.map((r) => [r.callId, r.outcome])).toEqual([
    ['call_a', 'ok'],
    ['call_b', 'ok'],
  ]);
  expect(settled[0]!.content).toMatch(/^child a done\n\n\(sub-agent, session /);
  expect(settled[1]!.content).toMatch(/^child b done\n\n\(sub-agent, session /);
  for (const child of children) {
    expect(results(child).filter((r) => r.tool === 'bash')).toHaveLength(1);
    const checked = await check(child, dirs.root, env);
    expect(checked.code, checked.output).toBe(0);
  }
}

describe('tole -p --resume after a SIGKILL with sub-agents in flight', () => {
  it('two children waiting on the model: each goes on from its own file, each parent call settles once', async () => {
    const setup = setUp();
    let hanging = true;
    route = script(() => hanging);
    const before = chatRequests(crash.server).length;
    const tole = startBuiltTole(['-p', PARENT, ...setup.args], { cwd: setup.dirs.root, env: setup.env });
    // Both children have settled their command and asked the model again: both are mid-call.
    await waitFor(
      () =>
        chatRequests(crash.server)
          .slice(before)
          .filter((r) => firstUser(r) !== PARENT && toolMessages(r) === 1).length === 2,
      'both children mid-call',
    );
    tole.child.kill('SIGKILL');
    expect((await tole.done).signal).toBe('SIGKILL');
    expect(results(sessionFiles(setup.sessions).parent)).toEqual([]);
    hanging = false;

    await resumeAndCheck(setup);
  });
});

describe('sub-agents in the listing, the export and -c', () => {
  it('tole sessions lists each child under its parent, export carries them, -c continues the parent', async () => {
    const setup = setUp();
    route = script(() => false);
    const first = await runBuiltTole(['-p', PARENT, ...setup.args], { cwd: setup.dirs.root, env: setup.env });
    expect(first.code, first.stderr).toBe(0);
    const { parent, children } = sessionFiles(setup.sessions);
    const childIds = children.map(idOf).sort();

    const listed = await runBuiltTole(['sessions'], { cwd: setup.dirs.root, env: setup.env });
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(new RegExp(`^${idOf(parent)} .*${PARENT}$`));
    expect(lines.slice(2, 4).map((l) => l.split(/\s+/).slice(0, 2))).toEqual(childIds.map((id) => ['└', id]));
    // The two children start side by side, so which one's id sorts first is not fixed: each is listed once.
    expect(
      lines
        .slice(2, 4)
        .map((l) => /sub-agent: child (\w)$/.exec(l)?.[1])
        .sort(),
    ).toEqual(['a', 'b']);

    const json = await runBuiltTole(['export', idOf(parent), '--format', 'json'], {
      cwd: setup.dirs.root,
      env: setup.env,
    });
    const document = JSON.parse(json.stdout) as {
      subAgents: { callId: string; sessionId: string; session: { header: { id: string }; entries: unknown[] } }[];
    };
    expect(document.subAgents.map((c) => [c.callId, c.session.header.id === c.sessionId])).toEqual([
      ['call_a', true],
      ['call_b', true],
    ]);
    const md = await runBuiltTole(['export', idOf(parent)], { cwd: setup.dirs.root, env: setup.env });
    expect(md.stdout).toMatch(/\n## Sub-agent [0-9]+-[0-9a-f]{6}, for call call_a\n\n## tole session /);
    expect(md.stdout).toContain('### You\n\nchild b');

    const next = await runBuiltTole(['-p', 'next', '-c', ...setup.args], { cwd: setup.dirs.root, env: setup.env });
    expect(next.code, next.stderr).toBe(0);
    expect(readStore(parent, (store) => entriesOfType(store, 'user').map((e) => e.payload.text))).toEqual([
      PARENT,
      'next',
    ]);
  });
});

describe('depth', () => {
  it('a child starts no child of its own, unless its profile lists task: then one level deeper', async () => {
    const setup = setUp();
    const agents = join(setup.dirs.parent, '.config', 'tole', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, 'lead.json'), JSON.stringify({ tools: ['task', 'read_file'] }));
    const offered = new Map<string, string[]>();
    route = (request) => {
      const prompt = firstUser(request);
      offered.set(
        prompt,
        (request.body?.tools ?? []).map((t) => (t as { function: { name: string } }).function.name),
      );
      const done = toolMessages(request) > 0;
      if (prompt === 'delegate twice')
        return done
          ? { text: 'all done' }
          : {
              toolCalls: [
                { id: 'call_lead', name: 'task', arguments: JSON.stringify({ prompt: 'lead it', agent: 'lead' }) },
                { id: 'call_plain', name: 'task', arguments: JSON.stringify({ prompt: 'plain child' }) },
              ],
            };
      if (prompt === 'lead it')
        return done
          ? { text: 'led' }
          : { toolCalls: [{ id: 'call_g', name: 'task', arguments: JSON.stringify({ prompt: 'grandchild' }) }] };
      return { text: `${prompt} answered` };
    };

    const run = await runBuiltTole(['-p', 'delegate twice', ...setup.args], { cwd: setup.dirs.root, env: setup.env });

    expect(run.code, run.stderr).toBe(0);
    expect(offered.get('delegate twice')).toContain('task');
    expect(offered.get('lead it')).toEqual(['read_file', 'task']);
    expect(offered.get('plain child')).not.toContain('task');
    expect(offered.get('grandchild')).not.toContain('task');
    const depths = readdirSync(setup.sessions)
      .map((name) => readStore(join(setup.sessions, name), (s) => s.header.parent?.task?.depth ?? 0))
      .sort();
    expect(depths).toEqual([0, 1, 1, 2]);
    expect(results(sessionFiles(setup.sessions).parent).map((r) => r.content.split('\n')[0])).toEqual([
      'led',
      'plain child answered',
    ]);
  });
});

/**
 * The crash matrix's rows for sub-agents: tole SIGKILLs itself at the first time a fault point of
 * the effect sandwich is reached, in the parent or in a child. Child a runs one shell command,
 * child b answers at once (or both answer at once: then the first settlement is the parent's).
 */
const ROWS = [
  { at: 'after-intent', command: true, ran: 'a\n', where: "after the parent's task intents, before any child's file" },
  { at: 'during-effect', command: true, ran: 'a\n', where: 'as the children start' },
  // The command's intent was never committed: the resumed child is told its call did not run, and answers.
  {
    at: 'after-checkpoint',
    command: true,
    ran: '',
    where: "in child a, after its checkpoint, before its command's intent",
  },
  { at: 'before-settlement', command: true, ran: 'a\n', where: 'in child a, its command run and not settled' },
  {
    at: 'before-settlement',
    command: false,
    ran: '',
    where: "with both children answered, the parent's call not settled",
  },
] as const;

describe('a SIGKILL at a fault point with sub-agents resumes to one settlement per call', () => {
  for (const row of ROWS) {
    it(`killed ${row.at} ${row.where}`, async () => {
      const setup = setUp();
      const both = script(() => false);
      route = (request) => {
        const prompt = firstUser(request);
        if (prompt === 'child b' || (prompt === 'child a' && !row.command)) return { text: `${prompt} done` };
        return both(request);
      };
      const crashed = await runBuiltTole(['-p', PARENT, ...setup.args], {
        cwd: setup.dirs.root,
        env: { ...setup.env, TOLE_CRASH_AT: row.at },
      });
      expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
      const { parent } = sessionFiles(setup.sessions);
      expect(results(parent)).toEqual([]);

      const resumed = await runBuiltTole(['-p', 'go on', '--resume', idOf(parent), ...setup.args], {
        cwd: setup.dirs.root,
        env: setup.env,
        timeoutMs: 60_000,
      });

      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toBe('parent carried on\n');
      // Child a's command ran once at most (never run twice), and the parent's calls settled once each, in order.
      expect(readFileSync(join(setup.dirs.root, 'count.txt'), 'utf8')).toBe(row.ran);
      const settled = results(parent);
      expect(settled.map((r) => [r.callId, r.outcome])).toEqual([
        ['call_a', 'ok'],
        ['call_b', 'ok'],
      ]);
      expect(settled.map((r) => r.content.split('\n')[0])).toEqual(['child a done', 'child b done']);
      const { children } = sessionFiles(setup.sessions);
      expect(children).toHaveLength(2);
      for (const child of children) {
        expect(results(child).filter((r) => r.tool === 'bash').length).toBeLessThanOrEqual(1);
        const checked = await check(child, setup.dirs.root, setup.env);
        expect(checked.code, checked.output).toBe(0);
      }
    });
  }
});
