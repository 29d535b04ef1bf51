/**
 * A real MCP server for tests, built with the official SDK: notes kept in a JSON file, with a
 * read-only tool, two write tools (one idempotent, one not), a tool without annotations, and
 * tools that wait, hang or die. Every call it starts is logged as a JSON line to the log file,
 * and so is every cancel notification it receives, so that tests can count effects.
 *
 * Over stdio (the way tole starts it):
 *   node --import tsx test/support/mcp-notes-server.ts --dir DIR [--fail-start]
 * Over Streamable HTTP on loopback, in the test process: `startNotesHttpServer(dir)`.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface NotesLogLine {
  readonly event: 'call' | 'cancelled';
  readonly tool: string;
  readonly args?: Record<string, unknown>;
}

/** The log lines a server wrote in `dir`. */
export function notesLog(dir: string): NotesLogLine[] {
  const file = join(dir, 'calls.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as NotesLogLine);
}

/** The notes a server holds in `dir`. */
export function notesIn(dir: string): Record<string, string> {
  const file = join(dir, 'notes.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

/** The notes server's tools over `dir`; `die` only where the server owns its process. */
export function buildNotesServer(dir: string, options: { canDie: boolean }): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  const log = (line: NotesLogLine): void => appendFileSync(join(dir, 'calls.jsonl'), `${JSON.stringify(line)}\n`);
  const save = (notes: Record<string, string>): void => writeFileSync(join(dir, 'notes.json'), JSON.stringify(notes));

  server.registerTool(
    'read_note',
    { description: 'Read one note.', inputSchema: { key: z.string() }, annotations: { readOnlyHint: true } },
    async ({ key }) => {
      log({ event: 'call', tool: 'read_note', args: { key } });
      const value = notesIn(dir)[key];
      return value === undefined ? { ...text(`no note "${key}"`), isError: true } : text(value);
    },
  );
  server.registerTool(
    'set_note',
    {
      description: 'Set a note to a value.',
      inputSchema: { key: z.string(), value: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    async ({ key, value }) => {
      log({ event: 'call', tool: 'set_note', args: { key, value } });
      save({ ...notesIn(dir), [key]: value });
      return { ...text(`set ${key}`), structuredContent: { key, value } };
    },
  );
  server.registerTool(
    'append_note',
    {
      description: 'Append text to a note.',
      inputSchema: { key: z.string(), text: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async ({ key, text: more }) => {
      log({ event: 'call', tool: 'append_note', args: { key, text: more } });
      const notes = notesIn(dir);
      save({ ...notes, [key]: `${notes[key] ?? ''}${more}` });
      return text(`appended to ${key}`);
    },
  );
  server.registerTool('wipe_notes', { description: 'Delete every note.', inputSchema: {} }, async () => {
    log({ event: 'call', tool: 'wipe_notes', args: {} });
    rmSync(join(dir, 'notes.json'), { force: true });
    return text('wiped');
  });
  server.registerTool(
    'show_env',
    {
      description: 'Names of the variables in the server environment.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async () => {
      log({ event: 'call', tool: 'show_env', args: {} });
      return text(Object.keys(process.env).sort().join(' '));
    },
  );
  server.registerTool(
    'wait',
    {
      description: 'Wait ms milliseconds (without ms: never answer), unless cancelled.',
      inputSchema: { ms: z.number().int().optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ ms }, extra) => {
      log({ event: 'call', tool: 'wait', args: ms === undefined ? {} : { ms } });
      await new Promise<void>((resolve) => {
        const timer = ms === undefined ? null : setTimeout(resolve, ms);
        extra.signal.addEventListener('abort', () => {
          if (timer) clearTimeout(timer);
          log({ event: 'cancelled', tool: 'wait' });
          resolve();
        });
      });
      return text('waited');
    },
  );
  server.registerTool(
    'add_tool',
    {
      description: 'Offer one more tool (echo_NAME), as a server whose tools change does.',
      inputSchema: { name: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ name }) => {
      log({ event: 'call', tool: 'add_tool', args: { name } });
      // Registered while connected: the SDK sends notifications/tools/list_changed.
      server.registerTool(
        `echo_${name}`,
        { description: 'Echo a text.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
        async ({ text: said }) => text(said),
      );
      return text(`added echo_${name}`);
    },
  );
  if (options.canDie) {
    server.registerTool(
      'die',
      { description: 'Exit the server process mid-call.', inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => {
        log({ event: 'call', tool: 'die', args: {} });
        process.stderr.write('notes server: dying on purpose in the middle of a call\n');
        setTimeout(() => process.exit(3), 20);
        return new Promise(() => {});
      },
    );
  }
  return server;
}

export interface NotesHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The notes server over Streamable HTTP on 127.0.0.1: a server and transport per client session. */
export async function startNotesHttpServer(dir: string): Promise<NotesHttpServer> {
  // Loaded here: the stdio server a test starts as a process (each start counts) never needs it.
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const sessions = new Map<string, { server: McpServer; transport: StreamableHTTPServerTransport }>();
  const http = createServer((req, res) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) {
      void known.transport.handleRequest(req, res);
      return;
    }
    const server = buildNotesServer(dir, { canDie: false });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, { server, transport }),
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map(({ server }) => server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function mainStdio(argv: readonly string[]): Promise<void> {
  const dir = argv[argv.indexOf('--dir') + 1];
  if (!argv.includes('--dir') || !dir) throw new Error('usage: mcp-notes-server.ts --dir DIR [--fail-start]');
  if (argv.includes('--fail-start')) {
    process.stderr.write('notes server: cannot open the notes database (NOTES_DB is not set)\n');
    process.exit(2);
  }
  await buildNotesServer(dir, { canDie: true }).connect(new StdioServerTransport());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await mainStdio(process.argv.slice(2));
