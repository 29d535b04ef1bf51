import { zodNow } from '../zod-on-use';
import type { Tool, ToolOutput } from '../tools/tool';
import type { McpToolDefinition } from './mcp-connection';
import { loadedMcpSdk } from './mcp-sdk';
import type { McpToolClass } from './mcp-risk';

export type McpArguments = Record<string, unknown>;

/** What `/tools` and the help overlay show of one MCP tool. */
export interface McpToolInfo {
  /** The name the model sees: `server__tool`. */
  readonly name: string;
  readonly server: string;
  /** The tool's own name on its server. */
  readonly remoteName: string;
  readonly risk: McpToolClass['risk'];
  readonly replay: McpToolClass['replay'];
  readonly reason: string;
}

/** Runs one call on the tool's server; never throws (a failure is an output the model reads). */
type McpCall = (remoteName: string, input: McpArguments, signal: AbortSignal) => Promise<ToolOutput>;

/** A description the model reads is cut here: servers are not trusted to keep them short. */
const MAX_DESCRIPTION_CHARS = 2000;
const MAX_SUBJECT_CHARS = 160;

/**
 * A tole tool for one MCP tool: its JSON Schema is checked (with the SDK's ajv validator) before
 * any call, its tier and replay class are `klass`, and `execute` goes through `call`. Throws
 * when the server's schema cannot be compiled.
 */
export function makeMcpTool(definition: McpToolDefinition, info: McpToolInfo, call: McpCall): Tool<McpArguments> {
  const parameters = { ...definition.inputSchema, type: 'object' } as Record<string, unknown>;
  // Its server has started, so the SDK (and its validator) is loaded.
  const validate = loadedMcpSdk().validators.getValidator<McpArguments>(parameters as never);
  const z = zodNow();
  const inputSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const checked = validate(value);
    if (!checked.valid)
      ctx.addIssue({ code: 'custom', message: `does not match the tool's schema: ${checked.errorMessage}` });
  });
  const description =
    `${definition.description ?? definition.title ?? info.remoteName} (from the MCP server "${info.server}")`.slice(
      0,
      MAX_DESCRIPTION_CHARS,
    );
  return {
    name: info.name,
    description,
    inputSchema,
    parameters,
    replay: info.replay,
    tier: 'warm',
    declaredRisk: info.risk,
    assess: () => ({ risk: info.risk, reason: info.reason }),
    subject: (input) => subjectOf(input),
    execute: (input, ctx) => call(info.remoteName, input, ctx.signal),
  };
}

/** The arguments on one line, shortened: what the approval prompt and allow rules see. */
function subjectOf(input: McpArguments): string {
  let text: string;
  try {
    text = JSON.stringify(input);
  } catch {
    // Nested deeper than JSON.stringify's stack (JSON.parse took it): the box shows them as lines.
    return '(arguments nested too deep to write on one line)';
  }
  return text.length <= MAX_SUBJECT_CHARS ? text : `${text.slice(0, MAX_SUBJECT_CHARS - 1)}…`;
}
