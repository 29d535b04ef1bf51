import type { ToolRegistry } from '../tools/registry';
import type { ToolOutput } from '../tools/tool';
import { describeError, McpConnection, McpServerError, type McpToolDefinition } from './mcp-connection';
import { mcpToolName } from './mcp-names';
import { isMcpError } from './mcp-sdk';
import { resultOutput } from './mcp-result';
import { classifyMcpTool } from './mcp-risk';
import type { McpServerSpec } from './mcp-server-spec';
import { makeMcpTool, type McpArguments, type McpToolInfo } from './mcp-tool';

type McpServerState =
  | { readonly kind: 'waiting' }
  | { readonly kind: 'starting' }
  | { readonly kind: 'ready'; readonly tools: readonly McpToolInfo[]; readonly refused: readonly string[] }
  | { readonly kind: 'failed'; readonly message: string; readonly stderr: string }
  /** Configured but never started (a project config that is not trusted). */
  | { readonly kind: 'skipped'; readonly reason: string };

export interface McpServerStatus {
  readonly name: string;
  readonly state: McpServerState;
}

/** What the hub tells its host: a server's tools came or went. */
export type McpHubEvent =
  | { readonly type: 'ready'; readonly server: string; readonly tools: number; readonly refused: readonly string[] }
  | { readonly type: 'failed'; readonly server: string; readonly message: string; readonly stderr: string };

interface McpHubOptions {
  readonly specs: readonly McpServerSpec[];
  /** Servers that are configured but must not start, and why. */
  readonly skipped?: readonly { readonly name: string; readonly reason: string }[];
  /** The registry the servers' tools are offered through (and withdrawn from). */
  readonly registry: ToolRegistry;
  /** False headless: Destructive tools are then left out (nobody could approve them). */
  readonly interactiveApprover: boolean;
  /** tole's version, sent to servers when connecting. */
  readonly version: string;
}

/**
 * The MCP servers of one session: starts them (at session start or lazily before the first turn,
 * each within its timeout), offers their tools as `server__tool`, withdraws the tools of a server
 * that fails or exits, and tells the host so. A failing server never stops the session.
 */
export class McpHub {
  private readonly states = new Map<string, McpServerState>();
  private readonly connections = new Map<string, McpConnection>();
  private readonly starting = new Map<string, Promise<void>>();
  private readonly refreshing = new Map<string, Promise<void>>();
  private readonly listeners = new Set<(event: McpHubEvent) => void>();
  private closed = false;

  private constructor(private readonly options: McpHubOptions) {
    for (const spec of options.specs) this.states.set(spec.name, { kind: 'waiting' });
    for (const skip of options.skipped ?? []) this.states.set(skip.name, { kind: 'skipped', reason: skip.reason });
  }

  static create(options: McpHubOptions): McpHub {
    return new McpHub(options);
  }

  get empty(): boolean {
    return this.states.size === 0;
  }

  /** Starts the servers configured to start with the session, in the background. */
  startSessionServers(): void {
    for (const spec of this.options.specs) if (spec.start === 'session') void this.startOne(spec);
  }

  /** Starts what has not started yet and waits for every start under way (each has its own timeout). */
  async ready(signal?: AbortSignal): Promise<void> {
    const all = this.options.specs.map((spec) => this.startOne(spec));
    if (!signal) {
      await Promise.all(all);
      return;
    }
    await Promise.race([
      Promise.all(all),
      new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
    ]);
  }

  statuses(): McpServerStatus[] {
    return [...this.states.entries()].map(([name, state]) => ({ name, state }));
  }

  /** Every MCP tool offered now. */
  tools(): McpToolInfo[] {
    return this.statuses().flatMap((status) => (status.state.kind === 'ready' ? status.state.tools : []));
  }

  subscribe(listener: (event: McpHubEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  private startOne(spec: McpServerSpec): Promise<void> {
    const known = this.starting.get(spec.name);
    if (known) return known;
    const started = this.connect(spec);
    this.starting.set(spec.name, started);
    return started;
  }

  private async connect(spec: McpServerSpec): Promise<void> {
    this.states.set(spec.name, { kind: 'starting' });
    try {
      const connection = await McpConnection.open(
        spec,
        this.options.version,
        (error) => this.fail(spec.name, error),
        () => this.refresh(spec),
      );
      if (this.closed) {
        await connection.close();
        return;
      }
      this.connections.set(spec.name, connection);
      const definitions = await connection.listTools();
      if (!connection.alive) return;
      const { tools, refused } = this.offer(spec, definitions);
      this.states.set(spec.name, { kind: 'ready', tools, refused });
      this.tell({ type: 'ready', server: spec.name, tools: tools.length, refused });
    } catch (error) {
      const failure =
        error instanceof McpServerError
          ? error
          : new McpServerError(spec.name, 'start-failed', describeError(error), '');
      this.fail(spec.name, failure);
    }
  }

  /** The server's tools changed: its old ones are withdrawn and the new list offered, one refresh at a time. */
  private refresh(spec: McpServerSpec): void {
    const previous = this.refreshing.get(spec.name) ?? Promise.resolve();
    const next = previous.then(async () => {
      const connection = this.connections.get(spec.name);
      const state = this.states.get(spec.name);
      if (!connection?.alive || state?.kind !== 'ready' || this.closed) return;
      try {
        const definitions = await connection.listTools();
        for (const tool of state.tools) this.options.registry.unregister(tool.name);
        const { tools, refused } = this.offer(spec, definitions);
        this.states.set(spec.name, { kind: 'ready', tools, refused });
        this.tell({ type: 'ready', server: spec.name, tools: tools.length, refused });
      } catch (error) {
        this.fail(
          spec.name,
          error instanceof McpServerError
            ? error
            : new McpServerError(spec.name, 'list-failed', describeError(error), connection.stderrTail()),
        );
      }
    });
    this.refreshing.set(spec.name, next);
  }

  /** Registers the server's tools; returns what was offered and, in words, what was refused. */
  private offer(
    spec: McpServerSpec,
    definitions: readonly McpToolDefinition[],
  ): { tools: McpToolInfo[]; refused: string[] } {
    const tools: McpToolInfo[] = [];
    const refused: string[] = [];
    for (const definition of definitions) {
      const settings = spec.tools[definition.name] ?? {};
      if (settings.disabled) continue;
      const name = mcpToolName(spec.name, definition.name);
      if (name === null) {
        refused.push(
          `${definition.name}: "${spec.name}__${definition.name}" is longer than the 64 characters a tool name may have`,
        );
        continue;
      }
      const klass = classifyMcpTool(definition.annotations, {
        trustAnnotations: settings.trustAnnotations ?? spec.trustAnnotations,
        ...(settings.risk ? { risk: settings.risk } : {}),
        ...(settings.replay ? { replay: settings.replay } : {}),
        mayLower: spec.origin === 'user',
      });
      if (klass.risk === 'Destructive' && !this.options.interactiveApprover) {
        refused.push(
          `${name}: Destructive (${klass.reason}); left out here, since only a keypress in the interactive tole can approve it`,
        );
        continue;
      }
      if (this.options.registry.get(name)) {
        refused.push(
          `${name}: a tool of that name is already offered (a built-in tool or another server's); rename the server in your config`,
        );
        continue;
      }
      const info: McpToolInfo = { name, server: spec.name, remoteName: definition.name, ...klass };
      try {
        this.options.registry.register(
          makeMcpTool(definition, info, (remote, input, signal) => this.call(spec, remote, input, signal)),
        );
      } catch (error) {
        refused.push(`${name}: ${describeError(error)}`);
        continue;
      }
      tools.push(info);
    }
    return { tools, refused };
  }

  private async call(
    spec: McpServerSpec,
    remoteName: string,
    input: McpArguments,
    signal: AbortSignal,
  ): Promise<ToolOutput> {
    const connection = this.connections.get(spec.name);
    if (!connection || !connection.alive) {
      return { ok: false, content: `the MCP server "${spec.name}" is not running; its tools are withdrawn. Not run.` };
    }
    try {
      return resultOutput(await connection.callTool(remoteName, input, signal));
    } catch (error) {
      // A process that died mid-call may still have its last stderr lines in the pipe.
      if (isMcpError(error, 'ConnectionClosed')) await new Promise((resolve) => setTimeout(resolve, 50));
      return { ok: false, content: callFailure(spec, error, signal, connection) };
    }
  }

  private fail(server: string, error: McpServerError): void {
    // A server that exits while its tools are listed fails both ways: it is told once.
    if (this.states.get(server)?.kind === 'failed') return;
    const connection = this.connections.get(server);
    this.connections.delete(server);
    const state = this.states.get(server);
    if (state?.kind === 'ready') for (const tool of state.tools) this.options.registry.unregister(tool.name);
    void connection?.close();
    this.states.set(server, { kind: 'failed', message: error.message, stderr: error.stderr });
    this.tell({ type: 'failed', server, message: error.message, stderr: error.stderr });
  }

  private tell(event: McpHubEvent): void {
    if (this.closed) return;
    for (const listener of this.listeners) listener(event);
  }
}

/** Words for the model about a call that did not come back with a result. */
function callFailure(spec: McpServerSpec, error: unknown, signal: AbortSignal, connection: McpConnection): string {
  const unknown = 'Whether its effect happened is unknown: check before you try it again.';
  if (signal.aborted)
    return `cancelled: the MCP server "${spec.name}" was sent the protocol's cancel notification. ${unknown}`;
  if (isMcpError(error, 'RequestTimeout')) {
    return `timed out: the MCP server "${spec.name}" did not answer within ${spec.callTimeoutMs} ms and was sent the protocol's cancel notification. ${unknown}`;
  }
  if (isMcpError(error, 'ConnectionClosed')) {
    const stderr = connection.stderrTail();
    return `the MCP server "${spec.name}" exited during the call, and its tools are withdrawn. ${unknown}${stderr ? `\nIts stderr ended with:\n${stderr}` : ''}`;
  }
  return `the MCP server "${spec.name}" failed the call: ${describeError(error)}`;
}
