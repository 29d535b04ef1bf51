/**
 * MCP calls through the real turn loop (Agent + chat server + the notes server over stdio):
 * the effect sandwich holds, a Destructive MCP call waits for an interactive decision, and Esc
 * (aborting the turn) sends the protocol's cancel notification to the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Approver, Decision } from '../../../src/core/approval/approver';
import { McpHub } from '../../../src/core/mcp/mcp-hub';
import { buildAgent, entriesOfType, eventLog, resultsFor, tempDirs, type TempDirs } from '../../support/agent-fixtures';
import { startChatServer, type ChatServer } from '../../support/chat-server';
import type { McpServerSpec } from '../../../src/core/mcp/mcp-server-spec';
import { notesHttpSpec, notesStdioSpec } from '../../support/mcp-fixtures';
import { notesIn, notesLog, startNotesHttpServer, type NotesHttpServer } from '../../support/mcp-notes-server';
import { waitFor } from '../../support/process-groups';

let server: ChatServer;
let http: NotesHttpServer;
let httpNotes: TempDirs;
const hubs: McpHub[] = [];
const all: TempDirs[] = [];

beforeAll(async () => {
  server = await startChatServer({ defaultReply: { text: 'ok' } });
  httpNotes = tempDirs('tole-mcp-http-notes-');
  http = await startNotesHttpServer(httpNotes.root);
});

afterAll(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  await server.close();
  await http.close();
  httpNotes.remove();
  for (const dirs of all) dirs.remove();
});

function approverSaying(decision: Decision): Approver & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return { asked, decide: async (request) => (asked.push(request), decision) };
}

function agentWithNotes(approver: Approver, spec?: (notes: string) => McpServerSpec) {
  const dirs = tempDirs('tole-mcp-loop-');
  all.push(dirs);
  const notes = `${dirs.parent}/notes`;
  const built = buildAgent({
    baseURL: server.url,
    sessionsDir: dirs.sessions,
    workspaceRoot: dirs.root,
    approver,
    externalTools: (registry, interactive) => {
      const hub = McpHub.create({
        specs: [spec ? spec(notes) : notesStdioSpec(notes)],
        registry,
        interactiveApprover: interactive,
        version: 't',
      });
      hubs.push(hub);
      return hub;
    },
  });
  return { ...built, notes };
}

describe('MCP calls in the turn loop', () => {
  it('a Destructive MCP call commits its intent, asks the user, and runs only once approved', async () => {
    const approver = approverSaying({ approved: true, by: 'user' });
    const { agent, store, notes } = agentWithNotes(approver);
    server.push(
      { toolCalls: [{ id: 'call_set', name: 'notes__set_note', arguments: '{"key":"a","value":"1"}' }] },
      { toolCalls: [{ id: 'call_wipe', name: 'notes__wipe_notes', arguments: '{}' }] },
    );
    const result = await agent.runTurn('set then wipe', new AbortController().signal, () => {});
    expect(result.outcome).toBe('done');
    expect(approver.asked.map((r) => [r.tool, r.risk])).toEqual([
      ['notes__set_note', 'Write'],
      ['notes__wipe_notes', 'Destructive'],
    ]);
    expect(approver.asked[1]?.reason).toMatch(/says nothing about its effects/);
    const intent = entriesOfType(store, 'tool_intent').find((e) => e.payload.callId === 'call_wipe');
    expect(intent?.payload).toMatchObject({ tool: 'notes__wipe_notes', risk: 'Destructive', replay: 'never' });
    expect(resultsFor(store, 'call_wipe').map((e) => e.payload.outcome)).toEqual(['ok']);
    expect(notesIn(notes)).toEqual({});
    store.close();
  });

  it('a denied Destructive MCP call never reaches the server', async () => {
    const approver = approverSaying({ approved: false, by: 'user', reason: 'no' });
    const { agent, store, notes } = agentWithNotes(approver);
    server.push({ toolCalls: [{ id: 'call_wipe', name: 'notes__wipe_notes', arguments: '{}' }] });
    await agent.runTurn('wipe', new AbortController().signal, () => {});
    expect(resultsFor(store, 'call_wipe').map((e) => e.payload.outcome)).toEqual(['denied']);
    expect(notesLog(notes).map((line) => line.tool)).not.toContain('wipe_notes');
    store.close();
  });

  it('calls a tool of a Streamable HTTP server through the loop, with its result sent back to the model', async () => {
    const approver = approverSaying({ approved: true, by: 'user' });
    const { agent, store } = agentWithNotes(approver, () => notesHttpSpec(http.url));
    server.push({
      toolCalls: [{ id: 'call_remote', name: 'remote__set_note', arguments: '{"key":"over","value":"http"}' }],
    });
    const before = server.requests.length;
    expect((await agent.runTurn('remote', new AbortController().signal, () => {})).outcome).toBe('done');
    expect(approver.asked.map((r) => [r.tool, r.risk])).toEqual([['remote__set_note', 'Write']]);
    expect(notesIn(httpNotes.root)).toEqual({ over: 'http' });
    const sent = server.requests
      .slice(before)
      .at(-1)
      ?.body?.messages?.find((m) => m.role === 'tool');
    expect(String(sent?.content)).toContain('set over');
    expect(resultsFor(store, 'call_remote').map((e) => e.payload.outcome)).toEqual(['ok']);
    store.close();
  });

  it('Esc during an MCP call sends the cancel notification and settles the call as interrupted', async () => {
    const { agent, store, notes } = agentWithNotes(approverSaying({ approved: true, by: 'user' }));
    server.push({ toolCalls: [{ id: 'call_wait', name: 'notes__wait', arguments: '{"ms":60000}' }] });
    const controller = new AbortController();
    const log = eventLog();
    const turn = agent.runTurn('wait', controller.signal, log.emit);
    await waitFor(() => notesLog(notes).some((line) => line.tool === 'wait'), 'the call to reach the server');
    controller.abort();
    const result = await turn;
    expect(result.outcome).toBe('aborted');
    await waitFor(() => notesLog(notes).some((line) => line.event === 'cancelled'), 'the server to see the cancel');
    expect(resultsFor(store, 'call_wait').map((e) => [e.payload.outcome, e.payload.content])).toEqual([
      ['interrupted', expect.stringContaining('cancel notification')],
    ]);
    store.close();
  });
});
