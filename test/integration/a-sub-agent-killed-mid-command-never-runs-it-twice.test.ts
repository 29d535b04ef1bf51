/**
 * The built tole SIGKILLed while a sub-agent's shell command runs (its effect begun: the command
 * has appended to a file and hangs), the kill point the fault-point rows of
 * crash-with-two-children-mid-call-settles-each-once.test.ts do not reach. The next `tole -p
 * --resume` of the parent settles the child's command once as "outcome unknown" without running
 * it again, tells the child's model so, and settles the parent's call once with the child's answer.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { NEVER_REPLAY_TEXT } from '../../src/core/session/resume';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import type { Entry } from '../../src/core/tree/entry-types';
import { ensureBuilt, runBuiltTole, startBuiltTole } from '../support/built-tole';
import type { RecordedRequest, ScriptedReply } from '../support/chat-server';
import { entriesOfType } from '../support/agent-fixtures';
import { builtToleDirs, crashFixture } from '../support/crash-fixture';
import { fileAppears } from '../support/file-appears';

type Message = { readonly role: string; readonly content?: unknown };

function firstUser(request: RecordedRequest): string {
  const found = ((request.body?.messages ?? []) as Message[]).find((m) => m.role === 'user');
  return typeof found?.content === 'string' ? found.content : '';
}

function toolContents(request: RecordedRequest): string[] {
  return ((request.body?.messages ?? []) as Message[])
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

let route: (request: RecordedRequest) => ScriptedReply;
const crash = crashFixture({ respond: (request) => route(request) });

beforeAll(() => {
  ensureBuilt();
});

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

describe('a sub-agent killed mid-command', () => {
  it('resumes to one "outcome unknown" for its command, never run again, and one settlement of the parent call', async () => {
    const { dirs, env, sessions } = builtToleDirs('tole-task-mid-command-');
    writeFileSync(join(dirs.root, 'count.txt'), '');
    const started = join(dirs.root, 'started');
    // Appends, says it started (in the workspace: the sandbox keeps a command's writes there), and
    // hangs: killed with tole mid-effect. The sleep ends with tole (the sandbox's --die-with-parent).
    const command = `echo a >> count.txt && echo started > started.tmp && mv started.tmp started && exec sleep 1000`;
    const toldChild: string[][] = [];
    route = (request) => {
      const prompt = firstUser(request);
      const tools = toolContents(request);
      if (prompt === 'delegate')
        return tools.length === 0
          ? { toolCalls: [{ id: 'call_a', name: 'task', arguments: JSON.stringify({ prompt: 'child a' }) }] }
          : { text: 'parent carried on' };
      if (tools.length === 0) return { toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command }) }] };
      toldChild.push(tools);
      return { text: 'child a done' };
    };
    const args = ['--base-url', crash.server.url, '--model', 'm', '--allow', `bash:${command}`];

    const tole = startBuiltTole(['-p', 'delegate', ...args], { cwd: dirs.root, env });
    await Promise.race([
      fileAppears(started),
      tole.done.then((run) => {
        throw new Error(`tole ended before the child's command started: ${run.stdout}${run.stderr}`);
      }),
    ]);
    tole.child.kill('SIGKILL');
    expect((await tole.done).signal).toBe('SIGKILL');
    const { parent, children } = sessionFiles(sessions);
    expect(children).toHaveLength(1);
    expect(results(parent)).toEqual([]);
    expect(results(children[0]!)).toEqual([]);

    const resumed = await runBuiltTole(
      [
        '-p',
        'go on',
        '--resume',
        parent
          .split('/')
          .at(-1)!
          .replace(/\.jsonl$/, ''),
        ...args,
      ],
      {
        cwd: dirs.root,
        env,
        timeoutMs: 60_000,
      },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('parent carried on\n');
    // The command ran once: the resume did not run it again.
    expect(readFileSync(join(dirs.root, 'count.txt'), 'utf8')).toBe('a\n');
    // The child's command settled once, as "outcome unknown", and its model was told so.
    const childResults = results(children[0]!);
    expect(childResults.map((r) => [r.tool, r.outcome, r.content])).toEqual([
      ['bash', 'interrupted', NEVER_REPLAY_TEXT],
    ]);
    expect(toldChild).toEqual([[NEVER_REPLAY_TEXT]]);
    // The parent's call settled once, with the child's answer.
    const settled = results(parent);
    expect(settled.map((r) => [r.callId, r.outcome])).toEqual([['call_a', 'ok']]);
    expect(settled[0]!.content).toMatch(/^child a done\n\n\(sub-agent, session /);
  });
});
