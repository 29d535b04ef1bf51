/**
 * `/new` restarts what a session owns: the MCP servers of the session left are closed and the new
 * one starts its own (the notes server, a child process the test bundles, counted with pgrep),
 * and the agent profile in use carries over.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDirForTest } from '../support/after-the-test';
import { chatServerForTest } from '../support/chat-server-for-test';
import { notesCommand } from '../support/mcp-fixtures';
import { KEYS } from './harness';
import { openTole } from './tole-in-the-screen';

describe('/new carries the settings over, and restarts what a session owns', () => {
  it('keeps the agent profile in use; the MCP servers of the session left are closed, the new one gets its own', async () => {
    const notesDir = tempDirForTest('tole-switch-notes-');
    const notes = notesCommand(notesDir);
    const server = await chatServerForTest();
    const tole = await openTole(server, {
      config: { mcpServers: { notes: { command: notes.command, args: notes.args } } },
      home: (home) => {
        mkdirSync(join(home, '.config', 'tole', 'agents'), { recursive: true });
        writeFileSync(
          join(home, '.config', 'tole', 'agents', 'reviewer.json'),
          JSON.stringify({ model: 'reviewer-model', tools: ['read_file'] }),
        );
      },
    });
    await tole.shows('type a prompt');
    /** The notes servers running now: their pids (the unique --dir tells them from any other). */
    const servers = (): number[] =>
      execFileSync('pgrep', ['-f', notesDir], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .filter((l) => l !== '')
        .map(Number);
    await vi.waitFor(() => expect(servers()).toHaveLength(1), 20_000);
    const before = servers()[0]!;

    await tole.type('/agent reviewer');
    await tole.press(KEYS.enter);
    await tole.shows('agent: reviewer · model reviewer-model');
    await tole.type('as the reviewer');
    await tole.press(KEYS.enter);
    await tole.shows('echo: as the reviewer');
    await tole.type('/new');
    await tole.press(KEYS.enter);
    await tole.shows('the one before is kept whole');
    await tole.type('still the reviewer');
    await tole.press(KEYS.enter);
    await tole.shows('echo: still the reviewer');
    const body = server.requests.at(-1)?.body;
    expect(body?.model).toBe('reviewer-model');
    const tools = (body?.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(tools).toEqual(['read_file']);

    // The old session's server was closed; the new session started its own.
    await vi.waitFor(() => {
      const now = servers();
      expect(now).toHaveLength(1);
      expect(now[0]).not.toBe(before);
    }, 20_000);
  });
});
