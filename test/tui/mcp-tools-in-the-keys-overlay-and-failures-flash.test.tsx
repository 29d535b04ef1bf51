/** The screen over a real MCP hub: a server that cannot start is flashed with its stderr; `?` lists the tools with tier and replay class. */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/core/mcp/mcp-hub';
import { ToolRegistry } from '../../src/core/tools/registry';
import { tempDirs } from '../support/agent-fixtures';
import { notesStdioSpec } from '../support/mcp-fixtures';
import { pane, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';

const dirs = tempDirs('tole-mcp-tui-');
let screen: Screen | undefined;
let hub: McpHub | undefined;

afterEach(async () => {
  screen?.unmount();
  await hub?.close();
});
afterAll(() => dirs.remove());

describe('MCP servers on the screen', () => {
  it('flashes a server that fails to start, with its stderr, and ? lists the tools of the others', async () => {
    const registry = ToolRegistry.create({ interactiveApprover: true });
    const specs = [
      notesStdioSpec(`${dirs.root}/notes`),
      notesStdioSpec(`${dirs.root}/broken`, { name: 'broken' }, ['--fail-start']),
    ];
    hub = McpHub.create({ specs, registry, interactiveApprover: true, version: 't' });
    screen = renderScreen({ store: emptyStore(), mcp: hub, columns: 140, rows: 60 });
    hub.startSessionServers();
    await hub.ready();
    const flashed = stripAnsi(await screen.waitFor('MCP server "broken" failed'));
    expect(flashed.replace(/\s+/g, ' ')).toMatch(/MCP server "broken" failed: could not start.*NOTES_DB is not set/);
    await screen.press('?');
    const overlay = pane(await screen.waitFor('keys · Esc or ? closes'), 'keys ·').replace(/[│\s]+/g, ' ');
    expect(overlay).toContain('MCP tools (tier · replay on resume)');
    expect(overlay).toContain('notes__read_note ReadOnly · idempotent');
    expect(overlay).toContain('notes__set_note Write · idempotent');
    expect(overlay).toContain('notes__append_note Write · never');
    expect(overlay).toContain('notes__wipe_notes Destructive · never');
    expect(overlay).toMatch(/broken failed: could not start/);
  });
});
