/**
 * The built tole in a real pseudo-terminal with MCP servers from the user's config: one that
 * cannot start is shown with its stderr, a Destructive MCP call waits for y, and the servers'
 * processes end when tole quits.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVAL_ARM_MS } from '../../src/tui/approval/approval-queue';
import { ensureBuilt, TOLE_JS } from '../support/built-tole';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { notesCommand } from '../support/mcp-fixtures';
import { notesLog } from '../support/mcp-notes-server';
import { TerminalDriver } from './terminal-driver';
import { tempDirForTest } from '../support/after-the-test';

let server: ChatServer;

/** Processes whose command line mentions `text` (Linux /proc). */
function processesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}
let driver: TerminalDriver | undefined;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({
    replies: [
      { toolCalls: [{ id: 'call_wipe', name: 'notes__wipe_notes', arguments: '{}' }] },
      { text: 'The notes are wiped.' },
    ],
  });
}, 120_000);

afterAll(async () => {
  driver?.kill('SIGKILL');
  await server?.close();
});

describe('MCP servers in the terminal', () => {
  it('shows a server that failed with its stderr, and runs a Destructive MCP call only after y', async () => {
    const parent = tempDirForTest('tole-e2e-mcp-');
    const workspace = join(parent, 'ws');
    const notes = join(parent, 'notes');
    mkdirSync(join(parent, 'config', 'tole'), { recursive: true });
    mkdirSync(workspace);
    const servers = {
      notes: { ...notesCommand(notes), trustAnnotations: true },
      broken: notesCommand(join(parent, 'broken'), ['--fail-start']),
    };
    writeFileSync(join(parent, 'config', 'tole', 'config.json'), JSON.stringify({ mcpServers: servers }));
    driver = new TerminalDriver({
      args: [TOLE_JS, '--base-url', server.url, '--model', 'm'],
      cwd: workspace,
      env: { HOME: parent, XDG_CONFIG_HOME: join(parent, 'config'), TOLE_HOME: join(parent, 'tole-home') },
    });
    const failed = (await driver.waitFor('MCP server "broken" failed')).replace(/\s+/g, ' ');
    expect(failed).toContain('NOTES_DB is not set');

    driver.type('wipe the notes\r');
    const asking = await driver.waitFor('approve?');
    expect(asking).toContain('notes__wipe_notes');
    expect(asking).toContain('Destructive');
    expect(notesLog(notes).map((line) => line.tool)).not.toContain('wipe_notes');
    await new Promise((resolve) => setTimeout(resolve, APPROVAL_ARM_MS + 50));
    driver.type('y');
    await driver.waitFor('The notes are wiped.');
    expect(notesLog(notes).map((line) => line.tool)).toEqual(['wipe_notes']);

    await driver.waitFor(/Final · seq/);
    expect(processesMentioning(notes)).toHaveLength(1);
    driver.type('\x03');
    expect((await driver.exit).exitCode).toBe(0);
    expect(processesMentioning(notes)).toEqual([]);
  }, 90_000);
});
