import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerSpec } from './mcp-server-spec';
import { loadMcpSdk, type McpSdk } from './mcp-sdk';
import { StderrTail } from './stderr-tail';

export type { CallToolResult, McpToolDefinition };

/** Pages of `tools/list` read at most: a server that pages forever is cut off there. */
const MAX_LIST_PAGES = 20;

/** Why a server could not be used: what happened, and the tail of its stderr. */
export class McpServerError extends Error {
  override readonly name = 'McpServerError';
  constructor(
    readonly server: string,
    readonly kind: 'start-failed' | 'start-timeout' | 'exited' | 'list-failed',
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/**
 * One live connection to an MCP server through the official SDK's client: stdio (a child process
 * with only the environment its spec gives) or Streamable HTTP. `onExit` is called once when the
 * server goes away without tole closing it; `onToolsChanged` when the server says its tools changed.
 */
export class McpConnection {
  private closing = false;
  private exited = false;

  private constructor(
    readonly spec: McpServerSpec,
    private readonly client: Client,
    private readonly stderr: StderrTail,
  ) {}

  static async open(
    spec: McpServerSpec,
    version: string,
    onExit: (error: McpServerError) => void,
    onToolsChanged: () => void,
  ): Promise<McpConnection> {
    const sdk = await loadMcpSdk();
    const stderr = new StderrTail();
    const transport = makeTransport(sdk, spec, stderr);
    // The server says when its tools change (`notifications/tools/list_changed`): the hub lists them again.
    const listChanged = { tools: { autoRefresh: false, onChanged: () => onToolsChanged() } };
    const client = new sdk.Client({ name: 'tole', version }, { capabilities: {}, listChanged });
    const connection = new McpConnection(spec, client, stderr);
    const timer = { id: undefined as NodeJS.Timeout | undefined };
    const timedOut = new Promise<never>((_, reject) => {
      timer.id = setTimeout(
        () =>
          reject(
            new McpServerError(
              spec.name,
              'start-timeout',
              `did not finish starting within ${spec.startupTimeoutMs} ms`,
              stderr.text(),
            ),
          ),
        spec.startupTimeoutMs,
      );
    });
    try {
      await Promise.race([client.connect(transport, { timeout: spec.startupTimeoutMs }), timedOut]);
    } catch (error) {
      connection.closing = true;
      await client.close().catch(() => {});
      if (error instanceof McpServerError) throw error;
      // Let the last words of a process that died at once reach the tail.
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new McpServerError(spec.name, 'start-failed', `could not start: ${describeError(error)}`, stderr.text());
    } finally {
      clearTimeout(timer.id);
    }
    // From here on an exit is news; one during the start is the start's failure, told above.
    client.onclose = () => connection.lost(onExit);
    return connection;
  }

  get alive(): boolean {
    return !this.closing && !this.exited;
  }

  stderrTail(): string {
    return this.stderr.text();
  }

  /** Every tool the server offers (following pages). */
  async listTools(): Promise<McpToolDefinition[]> {
    const tools: McpToolDefinition[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const result = await this.client.listTools(cursor === undefined ? {} : { cursor }, {
          timeout: this.spec.startupTimeoutMs,
        });
        tools.push(...result.tools);
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
    } catch (error) {
      throw new McpServerError(
        this.spec.name,
        'list-failed',
        `could not list its tools: ${describeError(error)}`,
        this.stderr.text(),
      );
    }
    return tools;
  }

  /**
   * Calls one tool. Aborting `signal` (Esc) and the call timeout both send the protocol's
   * `notifications/cancelled` (the SDK does) and reject.
   */
  callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    return this.client.callTool({ name, arguments: args }, undefined, {
      signal,
      timeout: this.spec.callTimeoutMs,
    }) as Promise<CallToolResult>;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.client.close().catch(() => {});
  }

  private lost(onExit: (error: McpServerError) => void): void {
    if (this.closing || this.exited) return;
    this.exited = true;
    // The process's last stderr lines may still be in the pipe.
    setTimeout(() => onExit(new McpServerError(this.spec.name, 'exited', 'the server exited', this.stderr.text())), 50);
  }
}

function makeTransport(sdk: McpSdk, spec: McpServerSpec, stderr: StderrTail): Transport {
  const { transport } = spec;
  if (transport.kind === 'http') {
    return new sdk.StreamableHTTPClientTransport(new URL(transport.url), {
      requestInit: { headers: { ...transport.headers } },
    });
  }
  const stdio = new sdk.StdioClientTransport({
    command: transport.command,
    args: [...transport.args],
    env: { ...transport.env },
    cwd: transport.cwd,
    stderr: 'pipe',
  });
  stdio.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  return stdio;
}

export function describeError(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  return message.replace(/^MCP error -?\d+: /, '');
}
