/**
 * The MCP SDK (client, transports, errors, and the ajv validator for servers' tool schemas),
 * loaded when the first server starts: it and ajv are large modules that a session without MCP
 * servers, and every session's first frame, never use.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

export interface McpSdk {
  readonly Client: typeof Client;
  readonly StdioClientTransport: typeof StdioClientTransport;
  readonly StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  readonly McpError: typeof McpError;
  readonly ErrorCode: typeof ErrorCode;
  /** One validator for every server's tool schemas. */
  readonly validators: AjvJsonSchemaValidator;
}

let loaded: Promise<McpSdk> | null = null;
let ready: McpSdk | null = null;

export function loadMcpSdk(): Promise<McpSdk> {
  loaded ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ]).then(([client, stdio, http, types, ajv]) => {
    ready = {
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
      validators: new ajv.AjvJsonSchemaValidator(),
    };
    return ready;
  });
  return loaded;
}

/** The SDK, once a server has started (`loadMcpSdk` resolved); what needs it runs only after that. */
export function loadedMcpSdk(): McpSdk {
  if (ready === null) throw new Error('the MCP SDK is used before any MCP server was started');
  return ready;
}

/** Whether `error` is the SDK's McpError with this code; nothing can have thrown one before the SDK loaded. */
export function isMcpError(error: unknown, code: 'ConnectionClosed' | 'RequestTimeout'): boolean {
  return ready !== null && error instanceof ready.McpError && error.code === ready.ErrorCode[code];
}
