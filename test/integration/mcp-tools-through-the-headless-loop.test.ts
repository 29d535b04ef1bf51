/**
 * The built tole, headless, with the notes MCP server from the user's config: calls through the
 * turn loop against the scripted chat server, approval by tier, a SIGKILL between intent and
 * settlement for each replay class, and a project's server that is never started.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import { chatRequests, onlySessionFile, resultsFor, tempDirs, type TempDirs } from '../support/agent-fixtures';
import { ensureBuilt, runBuiltTole } from '../support/built-tole';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { notesCommand } from '../support/mcp-fixtures';
import { notesIn, notesLog } from '../support/mcp-notes-server';

let server: ChatServer;
const all: TempDirs[] = [];

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({ defaultReply: { text: 'done' } });
});

afterAll(async () => {
  await server.close();
  for (const dirs of all) dirs.remove();
});

interface Setup {
  readonly dirs: TempDirs;
  readonly env: NodeJS.ProcessEnv;
  readonly notes: string;
  readonly sessions: string;
}

/** A home whose user config names the notes server (annotations trusted). */
function setUp(server: Record<string, unknown> = {}): Setup {
  const dirs = tempDirs('tole-mcp-headless-');
  all.push(dirs);
  const notes = join(dirs.parent, 'notes');
  const config = join(dirs.parent, 'config');
  mkdirSync(join(config, 'tole'), { recursive: true });
  writeFileSync(
    join(config, 'tole', 'config.json'),
    JSON.stringify({ mcpServers: { notes: { ...notesCommand(notes), trustAnnotations: true, ...server } } }),
  );
  const home = join(dirs.parent, 'tole-home');
  const env = { PATH: process.env.PATH, HOME: dirs.parent, XDG_CONFIG_HOME: config, TOLE_HOME: home };
  return { dirs, env, notes, sessions: join(home, 'sessions') };
}

function tole(setup: Setup, args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}) {
  return runBuiltTole([...args, '--base-url', server.url, '--model', 'm'], {
    cwd: setup.dirs.root,
    env: { ...setup.env, ...extraEnv },
    timeoutMs: 30_000,
  });
}

function results(path: string, callId: string): { outcome: string; content: string; resumedBy?: string }[] {
  const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(5), readOnly: true });
  try {
    return resultsFor(store, callId).map((e) => ({
      outcome: e.payload.outcome,
      content: e.payload.content,
      ...(e.payload.resumedBy ? { resumedBy: e.payload.resumedBy } : {}),
    }));
  } finally {
    store.close();
  }
}

function toolNamesOffered(index: number): string[] {
  const tools = (chatRequests(server).at(index)?.body?.tools ?? []) as { function: { name: string } }[];
  return tools.map((tool) => tool.function.name);
}

describe('MCP tools in the headless turn loop', () => {
  it('offers the server’s tools to the model and runs a Write call that --yes approves', async () => {
    const setup = setUp();
    server.push({
      toolCalls: [{ id: 'call_set', name: 'notes__set_note', arguments: '{"key":"plan","value":"ship it"}' }],
    });
    const before = chatRequests(server).length;
    const run = await tole(setup, ['-p', 'note the plan', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('done\n');
    expect(notesIn(setup.notes)).toEqual({ plan: 'ship it' });
    expect(toolNamesOffered(before)).toEqual(
      expect.arrayContaining(['read_file', 'notes__read_note', 'notes__set_note', 'notes__append_note']),
    );
    const toolMessage = chatRequests(server)
      .at(-1)
      ?.body?.messages?.find((m) => m.role === 'tool');
    expect(String(toolMessage?.content)).toContain('set plan');
    expect(results(onlySessionFile(setup.sessions), 'call_set')).toEqual([
      { outcome: 'ok', content: expect.stringContaining('set plan') },
    ]);
  });

  it('headless, a Write call without --yes is denied with the flag that allows it, and never reaches the server', async () => {
    const setup = setUp();
    server.push({
      toolCalls: [{ id: 'call_append', name: 'notes__append_note', arguments: '{"key":"a","text":"x"}' }],
    });
    const run = await tole(setup, ['-p', 'append']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/notes__append_note denied: .*--yes/);
    expect(notesLog(setup.notes).filter((line) => line.event === 'call')).toEqual([]);
  });

  it('an --allow rule naming an MCP tool approves its Write calls headless', async () => {
    const setup = setUp();
    server.push({
      toolCalls: [{ id: 'call_append', name: 'notes__append_note', arguments: '{"key":"a","text":"x"}' }],
    });
    const run = await tole(setup, ['-p', 'append', '--allow', 'notes__append_note']);
    expect(run.code, run.stderr).toBe(0);
    expect(notesIn(setup.notes)).toEqual({ a: 'x' });
  });

  it('--yes does not run the unannotated (Destructive) tool headless: it is not offered, and a call to it runs nothing', async () => {
    const setup = setUp();
    server.push({ toolCalls: [{ id: 'call_wipe', name: 'notes__wipe_notes', arguments: '{}' }] });
    const before = chatRequests(server).length;
    const run = await tole(setup, ['-p', 'wipe', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/notes__wipe_notes: Destructive .*keypress/);
    expect(toolNamesOffered(before)).not.toContain('notes__wipe_notes');
    expect(notesLog(setup.notes).map((line) => line.tool)).not.toContain('wipe_notes');
    expect(results(onlySessionFile(setup.sessions), 'call_wipe')).toEqual([
      { outcome: 'error', content: expect.stringContaining('Unknown tool') },
    ]);
  });

  it('without trustAnnotations every tool of the server is Destructive, so --yes runs none of them headless', async () => {
    const setup = setUp({ trustAnnotations: false });
    server.push({ toolCalls: [{ id: 'call_set', name: 'notes__set_note', arguments: '{"key":"k","value":"v"}' }] });
    const run = await tole(setup, ['-p', 'set', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(notesLog(setup.notes)).toEqual([]);
  });

  const CRASHES = [
    { tool: 'set_note', args: '{"key":"k","value":"v"}', replay: 'idempotent', runs: 2, outcome: 'ok' },
    { tool: 'append_note', args: '{"key":"k","text":"+"}', replay: 'never', runs: 1, outcome: 'interrupted' },
  ] as const;
  for (const crash of CRASHES) {
    it(`a SIGKILL between intent and settlement of a ${crash.replay} MCP call resumes to exactly one settlement`, async () => {
      const setup = setUp();
      const callId = `call_${crash.tool}`;
      server.push({ toolCalls: [{ id: callId, name: `notes__${crash.tool}`, arguments: crash.args }] });
      const crashed = await tole(setup, ['-p', 'go', '--yes'], { TOLE_CRASH_AT: 'before-settlement' });
      expect(crashed.signal, crashed.stderr).toBe('SIGKILL');
      const path = onlySessionFile(setup.sessions);
      expect(results(path, callId)).toEqual([]);
      expect(notesLog(setup.notes).filter((line) => line.tool === crash.tool)).toHaveLength(1);

      const resumed = await tole(setup, ['-p', 'go on', '--resume', path, '--yes']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(notesLog(setup.notes).filter((line) => line.tool === crash.tool)).toHaveLength(crash.runs);
      const settled = results(path, callId);
      expect(settled).toHaveLength(1);
      expect(settled[0]).toMatchObject({
        outcome: crash.outcome,
        ...(crash.replay === 'never'
          ? { content: expect.stringContaining('outcome unknown') }
          : { resumedBy: 'rerun' }),
      });
    });
  }

  it("a project config's server is never started from an untrusted project, and says so", async () => {
    const setup = setUp();
    const projectNotes = join(setup.dirs.parent, 'project-notes');
    writeFileSync(
      join(setup.dirs.root, 'tole.config.json'),
      JSON.stringify({ mcpServers: { evil: notesCommand(projectNotes) } }),
    );
    const before = chatRequests(server).length;
    const run = await tole(setup, ['-p', 'hello']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/MCP server "evil" not started: .*not trusted/);
    expect(notesLog(projectNotes)).toEqual([]);
    expect(toolNamesOffered(before).some((name) => name.startsWith('evil__'))).toBe(false);
    expect(toolNamesOffered(before)).toContain('notes__read_note');
  });
});
