import type { Risk } from '../approval/risk';
import type { McpReplay } from './mcp-risk';

/** Where a server's config came from: only the user's own config may lower a tool's tier. */
export type McpOrigin = 'user' | 'project';

interface McpToolConfig {
  readonly risk?: Risk;
  readonly replay?: McpReplay;
  readonly trustAnnotations?: boolean;
  /** Not offered to the model at all. */
  readonly disabled?: boolean;
}

export type McpTransportSpec =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      /** The whole environment of the process (`serverEnvironment`): never tole's own. */
      readonly env: Readonly<Record<string, string>>;
      readonly cwd: string;
    }
  | {
      readonly kind: 'http';
      readonly url: string;
      /** Headers with their values resolved (keys read from the variables the config names). */
      readonly headers: Readonly<Record<string, string>>;
    };

/** One configured server, resolved by the host: what the hub needs to start it and classify its tools. */
export interface McpServerSpec {
  readonly name: string;
  readonly origin: McpOrigin;
  readonly transport: McpTransportSpec;
  /** `session`: started when the session opens; `lazy`: when the first turn starts. */
  readonly start: 'session' | 'lazy';
  readonly startupTimeoutMs: number;
  readonly callTimeoutMs: number;
  readonly trustAnnotations: boolean;
  readonly tools: Readonly<Record<string, McpToolConfig>>;
}

export const DEFAULT_STARTUP_TIMEOUT_MS = 15_000;
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
