/**
 * `/agent` and `/context` in the full-screen session, wired as `tole` wires them, against the
 * real local chat server: listing and switching profiles (the next request shows it), the switch
 * surviving a resume, and the context report with the window the server gave, or none.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { gateProjectConfig } from '../../src/cli/project-gate';
import { prepareSession } from '../../src/cli/session-setup';
import { resolveProvider } from '../../src/cli/settings';
import { seededRandom, systemClock } from '../../src/core/clock';
import { sessionFact } from '../../src/core/session/session-facts';
import { SessionStore } from '../../src/core/storage/session-store';
import { chatRequests } from '../support/agent-fixtures';
import { startChatServer, type ChatServer, type ChatServerOptions } from '../support/chat-server';
import { KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { wiredSession, type WiredSession } from './wired-session';

let screen: Screen | undefined;
let server: ChatServer | undefined;
afterEach(async () => {
  screen?.unmount();
  screen = undefined;
  await server?.close();
});

async function session(options: ChatServerOptions = {}, model = 'tole-test-model'): Promise<WiredSession> {
  server = await startChatServer(options);
  const wired = wiredSession({ baseUrl: server.url, model });
  const agents = join(wired.home, '.config', 'tole', 'agents');
  mkdirSync(agents, { recursive: true });
  writeFileSync(
    join(agents, 'reviewer.json'),
    JSON.stringify({
      description: 'reads and reviews',
      model: 'review-model',
      tools: ['read_file', 'grep'],
      generation: { temperature: 0.1 },
    }),
  );
  screen = renderScreen({ ...wired, columns: 140, rows: 40 });
  return wired;
}

async function command(s: Screen, text: string): Promise<void> {
  await s.type(text);
  await s.press(KEYS.enter);
}

describe('/agent and /context', () => {
  it('/agent lists the profiles; /agent NAME switches from the next call on, and resume keeps it', async () => {
    const wired = await session();
    const s = screen!;
    await command(s, '/agent');
    await s.waitFor('reviewer');
    expect(stripAnsi(s.frame())).toContain('running: no profile');
    await s.press(KEYS.escape);
    await command(s, '/agent reviewer');
    await s.waitFor('agent: reviewer · model review-model', 5_000);
    await command(s, 'review this');
    await s.waitFor('echo: review this', 10_000);
    const request = chatRequests(server!).at(-1)!;
    expect(request.body?.model).toBe('review-model');
    expect(((request.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name)).toEqual([
      'read_file',
      'grep',
    ]);
    expect(request.body?.temperature).toBe(0.1);
    expect(sessionFact(wired.store, 'agent')).toBe('reviewer');
    expect(sessionFact(wired.store, 'model')).toBe('review-model');
    const path = wired.store.path;
    screen!.unmount();
    screen = undefined;
    wired.store.close();

    // tole --resume: the session's recorded profile and model come back.
    const store = SessionStore.open(path, { clock: systemClock, random: seededRandom(3) });
    try {
      const args = parseArgs(['--resume', path, '--base-url', server!.url]);
      const env = { HOME: wired.home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
      const gated = gateProjectConfig({}, [], wired.root, env, undefined);
      const settings = resolveProvider(args, {}, env, 'tole.config.json');
      const prepared = await prepareSession({
        args,
        gated,
        configFile: 'tole.config.json',
        store,
        settings,
        env,
        workspaceRoot: wired.root,
        nowIso: new Date().toISOString(),
      });
      expect(prepared.resolved.active.name).toBe('reviewer');
      expect(prepared.resolved.active.tools).toEqual(['read_file', 'grep']);
      expect(prepared.model).toBe('review-model');
    } finally {
      store.close();
    }
  });

  it('/context shows the fill against the window the server gave, what is loaded and the settings', async () => {
    await session();
    const s = screen!;
    await command(s, '/context');
    const empty = stripAnsi(await s.waitFor('0 messages', 5_000));
    // The provider is named with where it is: a local server is not "openai" alone.
    expect(empty).toContain(`on openai at ${server!.url}`);
    await s.press(KEYS.escape);
    await command(s, 'hello');
    await s.waitFor('echo: hello', 10_000);
    expect(pane(await s.waitFor('32.8k from GET', 5_000), 'usage')).toMatch(/window\s+32\.8k from GET \/v1\/models/);
    await command(s, '/context');
    const frame = stripAnsi(await s.waitFor('window from GET /v1/models', 5_000));
    expect(frame).toMatch(/of 32\.8k tokens \(\d+%\)/);
    expect(frame).toContain('estimated as characters ÷ 4 (model tole-test-model)');
    expect(frame).toContain('agent profile: none');
    expect(frame).toContain("generation the server's defaults");
    expect(frame).toMatch(/conversation\s+~\S+ \(2 messages\)/);
    await s.press(KEYS.escape);
    await command(s, '/agent reviewer');
    await s.waitFor('agent: reviewer', 5_000);
    await command(s, '/context');
    const after = stripAnsi(await s.waitFor('agent profile: reviewer', 5_000));
    expect(after).toContain('generation temperature 0.1');
    expect(after).toContain('tools read_file, grep');
  });

  it("/context counts an OpenAI model's prompt with its tokenizer and says so", async () => {
    await session({}, 'gpt-4.1');
    const s = screen!;
    await command(s, '/context');
    const frame = stripAnsi(await s.waitFor('tokens counted with o200k_base', 10_000));
    expect(frame).toContain('tokens counted with o200k_base (model gpt-4.1)');
    expect(frame).not.toContain('characters ÷ 4');
  });

  it('/context says when the window is not known, and that automatic compaction is off', async () => {
    await session({ noModelList: true });
    const s = screen!;
    await command(s, 'hello');
    await s.waitFor('echo: hello', 10_000);
    expect(pane(await s.waitFor('no auto-compact', 5_000), 'usage')).toContain('window  unknown: no auto-compact');
    await command(s, '/context');
    await s.waitFor('the context window is not known, so automatic compaction is off', 5_000);
  });
});
