/**
 * The hub against real MCP servers built with the SDK: the notes server over stdio (a child
 * process tole starts) and over Streamable HTTP on loopback.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpHub, type McpHubEvent } from '../../../src/core/mcp/mcp-hub';
import type { McpServerSpec } from '../../../src/core/mcp/mcp-server-spec';
import { serverEnvironment } from '../../../src/core/mcp/mcp-env';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { tempDirs, type TempDirs } from '../../support/agent-fixtures';
import { notesHttpSpec, notesStdioSpec } from '../../support/mcp-fixtures';
import { notesLog, startNotesHttpServer, type NotesHttpServer } from '../../support/mcp-notes-server';
import { waitFor } from '../../support/process-groups';

let dirs: TempDirs;
let http: NotesHttpServer;
const hubs: McpHub[] = [];

beforeAll(async () => {
  dirs = tempDirs('tole-mcp-hub-');
  http = await startNotesHttpServer(dirs.outside);
});

afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});

afterAll(async () => {
  await http.close();
  dirs.remove();
});

function hubOf(
  specs: McpServerSpec[],
  interactive = true,
): { hub: McpHub; registry: ToolRegistry; events: McpHubEvent[] } {
  const registry = ToolRegistry.create({ interactiveApprover: interactive });
  const hub = McpHub.create({ specs, registry, interactiveApprover: interactive, version: '0.0.0-test' });
  hubs.push(hub);
  const events: McpHubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return { hub, registry, events };
}

async function run(registry: ToolRegistry, name: string, args: unknown, signal = new AbortController().signal) {
  const parsed = registry.parseCall(name, JSON.stringify(args));
  if (!parsed.ok) return { ok: false, content: parsed.message, parsed: false };
  return {
    ...(await parsed.tool.execute(parsed.input, { workspaceRoot: dirs.root, signal, callId: 'c1' })),
    parsed: true,
  };
}

describe('an MCP hub over real servers', () => {
  it('lists a stdio and an HTTP server’s tools as server__tool, with tier and replay class from trusted annotations', async () => {
    const { hub, registry } = hubOf([notesStdioSpec(`${dirs.root}/stdio-list`), notesHttpSpec(http.url)]);
    await hub.ready();
    const byName = Object.fromEntries(hub.tools().map((tool) => [tool.name, [tool.risk, tool.replay]]));
    expect(byName).toMatchObject({
      notes__read_note: ['ReadOnly', 'idempotent'],
      notes__set_note: ['Write', 'idempotent'],
      notes__append_note: ['Write', 'never'],
      notes__wipe_notes: ['Destructive', 'never'],
      remote__read_note: ['ReadOnly', 'idempotent'],
      remote__wipe_notes: ['Destructive', 'never'],
    });
    expect(byName).not.toHaveProperty('remote__die');
    const definition = registry.definitions().find((d) => d.name === 'notes__set_note');
    expect(definition?.parameters).toMatchObject({
      type: 'object',
      properties: { key: { type: 'string' }, value: { type: 'string' } },
      required: ['key', 'value'],
    });
  });

  it('calls tools over both transports, and checks arguments against the server’s schema before any call', async () => {
    const dir = `${dirs.root}/stdio-call`;
    const { hub, registry } = hubOf([notesStdioSpec(dir), notesHttpSpec(http.url)]);
    await hub.ready();
    expect(await run(registry, 'notes__set_note', { key: 'a', value: 'one' })).toMatchObject({
      ok: true,
      content: expect.stringContaining('set a'),
    });
    expect(await run(registry, 'notes__read_note', { key: 'a' })).toMatchObject({ ok: true, content: 'one' });
    expect(await run(registry, 'remote__set_note', { key: 'b', value: 'two' })).toMatchObject({ ok: true });
    expect(await run(registry, 'remote__read_note', { key: 'b' })).toMatchObject({ ok: true, content: 'two' });

    const bad = await run(registry, 'notes__set_note', { key: 'a', value: 7 });
    expect(bad).toMatchObject({
      ok: false,
      parsed: false,
      content: expect.stringContaining("does not match the tool's schema"),
    });
    expect(notesLog(dir).filter((line) => line.tool === 'set_note')).toHaveLength(1);
  });

  it('starts a stdio server with only the environment its config names, plus PATH and the like', async () => {
    const spec = notesStdioSpec(`${dirs.root}/stdio-env`);
    const env = serverEnvironment({ ...process.env, TOLE_TEST_SECRET_KEY: 'sk-never' }, ['TOLE_TEST_PASSED'], {
      NOTES_MODE: 'test',
    });
    const { hub, registry } = hubOf([
      {
        ...spec,
        transport: { ...spec.transport, env: { ...env, TOLE_TEST_PASSED: 'yes' } } as McpServerSpec['transport'],
      },
    ]);
    await hub.ready();
    const names = (await run(registry, 'notes__show_env', {})).content.split(' ');
    expect(names).toEqual(expect.arrayContaining(['PATH', 'NOTES_MODE', 'TOLE_TEST_PASSED']));
    expect(names).not.toContain('TOLE_TEST_SECRET_KEY');
    expect(names.filter((name) => /KEY|TOKEN|SECRET/.test(name))).toEqual([]);
  });

  it('a server that fails to start is reported with its stderr, and the others go on', async () => {
    const failing = notesStdioSpec(`${dirs.root}/stdio-fail`, { name: 'broken' }, ['--fail-start']);
    const { hub, events } = hubOf([failing, notesHttpSpec(http.url)]);
    await hub.ready();
    expect(events).toContainEqual({
      type: 'failed',
      server: 'broken',
      message: expect.stringMatching(/could not start/),
      stderr: expect.stringContaining('NOTES_DB is not set'),
    });
    expect(hub.statuses().find((s) => s.name === 'broken')?.state.kind).toBe('failed');
    expect(hub.tools().some((tool) => tool.server === 'remote')).toBe(true);
  });

  it('offers the new list when the server says its tools changed', async () => {
    const { hub, registry } = hubOf([notesStdioSpec(`${dirs.root}/stdio-changed`)]);
    await hub.ready();
    expect(registry.names()).not.toContain('notes__echo_more');
    expect(await run(registry, 'notes__add_tool', { name: 'more' })).toMatchObject({ ok: true });
    await waitFor(() => registry.names().includes('notes__echo_more'), 'the new tool to be offered');
    expect(await run(registry, 'notes__echo_more', { text: 'hi' })).toMatchObject({ ok: true, content: 'hi' });
    expect(hub.tools().filter((tool) => tool.name === 'notes__read_note')).toHaveLength(1);
  });

  it('a server that never answers at start is given up after its startup timeout, with its stderr', async () => {
    // A shell, not the notes server: it has its stderr written within milliseconds of its start, so
    // a short limit still finds it there, and it leaves when tole closes its stdin (a node server
    // that ignored that cost two more seconds of the SDK's wait before its SIGTERM).
    const script = "echo 'stuck server: waiting for a lock that never comes' >&2; exec cat > /dev/null";
    const hanging: McpServerSpec = {
      ...notesStdioSpec(`${dirs.root}/stdio-hang-start`, { name: 'stuck', startupTimeoutMs: 1000 }),
      transport: {
        kind: 'stdio',
        command: 'sh',
        args: ['-c', script],
        env: serverEnvironment(process.env, [], {}),
        cwd: dirs.root,
      },
    };
    const { hub, events } = hubOf([hanging]);
    await hub.ready();
    expect(events).toEqual([
      {
        type: 'failed',
        server: 'stuck',
        message: 'did not finish starting within 1000 ms',
        stderr: expect.stringContaining('waiting for a lock that never comes'),
      },
    ]);
  });

  it('a server that dies mid-call fails the call with its stderr, and its tools are withdrawn', async () => {
    const { hub, registry, events } = hubOf([notesStdioSpec(`${dirs.root}/stdio-die`)]);
    await hub.ready();
    const result = await run(registry, 'notes__die', {});
    expect(result.ok).toBe(false);
    expect(result.content).toMatch(/exited during the call[\s\S]*unknown[\s\S]*dying on purpose/);
    await waitFor(() => events.some((e) => e.type === 'failed'), 'the failure event');
    expect(events.find((e) => e.type === 'failed')).toMatchObject({
      server: 'notes',
      stderr: expect.stringContaining('dying on purpose'),
    });
    expect(registry.names().filter((name) => name.startsWith('notes__'))).toEqual([]);
  });

  it('a call the server never answers times out, and the server is sent the cancel notification', async () => {
    const dir = `${dirs.root}/stdio-hang`;
    const { hub, registry } = hubOf([notesStdioSpec(dir, { callTimeoutMs: 400 })]);
    await hub.ready();
    const result = await run(registry, 'notes__wait', {});
    expect(result).toMatchObject({
      ok: false,
      content: expect.stringMatching(/timed out[\s\S]*400 ms[\s\S]*cancel notification/),
    });
    await waitFor(() => notesLog(dir).some((line) => line.event === 'cancelled'), 'the server to see the cancel');
  });

  it('aborting a call (Esc) sends the protocol’s cancel notification', async () => {
    const dir = `${dirs.root}/stdio-cancel`;
    const { hub, registry } = hubOf([notesStdioSpec(dir)]);
    await hub.ready();
    const controller = new AbortController();
    const running = run(registry, 'notes__wait', { ms: 60_000 }, controller.signal);
    await waitFor(() => notesLog(dir).some((line) => line.tool === 'wait'), 'the call to start');
    controller.abort();
    expect(await running).toMatchObject({ ok: false, content: expect.stringContaining('cancel notification') });
    await waitFor(() => notesLog(dir).some((line) => line.event === 'cancelled'), 'the server to see the cancel');
  });

  it('headless, Destructive tools are left out and said so; a name already taken is refused', async () => {
    const registry = ToolRegistry.create({ interactiveApprover: false });
    const hub = McpHub.create({
      specs: [notesHttpSpec(http.url), notesHttpSpec(http.url, { name: 'remote' })],
      registry,
      interactiveApprover: false,
      version: 't',
    });
    hubs.push(hub);
    const events: McpHubEvent[] = [];
    hub.subscribe((event) => events.push(event));
    await hub.ready();
    expect(registry.names()).toContain('remote__set_note');
    expect(registry.names()).not.toContain('remote__wipe_notes');
    expect(events[0]).toMatchObject({
      type: 'ready',
      refused: [expect.stringMatching(/remote__wipe_notes: Destructive.*keypress/)],
    });
  });
});
