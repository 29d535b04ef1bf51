import type { ReplaySafety } from '../tools/tool';
import { RISK_ORDER, type Risk } from '../approval/risk';

/** The hints of an MCP tool's `annotations` that tole reads (the spec's names). */
interface McpToolHints {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
}

/** MCP tools replay `idempotent` or `never`: the protocol has no way to ask whether an effect happened. */
export type McpReplay = Extract<ReplaySafety, 'idempotent' | 'never'>;

/** What the config says about one server's tools (server-wide, then per tool). */
interface McpToolSettings {
  /** Take the server's annotations at their word, so they may lower the tier below Destructive. */
  readonly trustAnnotations: boolean;
  /** An explicit tier for the tool. */
  readonly risk?: Risk;
  readonly replay?: McpReplay;
  /**
   * True when the settings come from the user's own config: only then may they lower a tier or
   * make a call replayable. A project's config may only raise them.
   */
  readonly mayLower: boolean;
}

export interface McpToolClass {
  readonly risk: Risk;
  readonly replay: McpReplay;
  /** Why, for the approval prompt and `/tools`. */
  readonly reason: string;
}

/**
 * The spec's reading of the hints: `readOnlyHint` -> ReadOnly; `destructiveHint: false` -> Write;
 * otherwise Destructive (the default of `destructiveHint` is true). `idempotentHint` -> replay
 * `idempotent`, otherwise `never`; a read-only tool changes nothing, so running it again is safe.
 */
export function riskFromHints(hints: McpToolHints): { risk: Risk; replay: McpReplay } {
  if (hints.readOnlyHint === true) return { risk: 'ReadOnly', replay: 'idempotent' };
  const risk: Risk = hints.destructiveHint === false ? 'Write' : 'Destructive';
  return { risk, replay: hints.idempotentHint === true ? 'idempotent' : 'never' };
}

/** The spec's defaults for a tool that says nothing: destructive, not idempotent. */
const UNTRUSTED = { risk: 'Destructive', replay: 'never' } as const satisfies { risk: Risk; replay: McpReplay };

/**
 * The tier and replay class of one MCP tool. Annotations come from the server, so they count only
 * when the config trusts them; without that every tool is Destructive and never replayed. An
 * explicit tier or replay class in the user's config wins either way; one in a project's config
 * can only make the tool safer to handle (a higher tier, `never`).
 */
export function classifyMcpTool(hints: McpToolHints | undefined, settings: McpToolSettings): McpToolClass {
  const trusted = settings.trustAnnotations && settings.mayLower;
  const base = trusted ? riskFromHints(hints ?? {}) : UNTRUSTED;
  let risk = base.risk;
  let replay = base.replay;
  let why =
    trusted && saysSomething(hints)
      ? `the server's annotations (trusted by your config) say ${describeHints(hints)}`
      : hintsNote(hints);
  if (settings.risk !== undefined && (settings.mayLower || RISK_ORDER[settings.risk] > RISK_ORDER[risk])) {
    risk = settings.risk;
    why = `your config sets ${risk}`;
  }
  if (settings.replay !== undefined && (settings.mayLower || settings.replay === 'never')) replay = settings.replay;
  return { risk, replay, reason: why };
}

function saysSomething(hints: McpToolHints | undefined): hints is McpToolHints {
  return (
    hints !== undefined &&
    (hints.readOnlyHint !== undefined || hints.destructiveHint !== undefined || hints.idempotentHint !== undefined)
  );
}

function hintsNote(hints: McpToolHints | undefined): string {
  if (!saysSomething(hints)) return 'the server says nothing about its effects (MCP treats that as destructive)';
  return `the server's annotations (${describeHints(hints)}) are not trusted: set "trustAnnotations" for this server in your own config to use them`;
}

function describeHints(hints: McpToolHints | undefined): string {
  if (!hints) return 'nothing';
  const parts: string[] = [];
  if (hints.readOnlyHint !== undefined) parts.push(`readOnly ${hints.readOnlyHint}`);
  if (hints.destructiveHint !== undefined) parts.push(`destructive ${hints.destructiveHint}`);
  if (hints.idempotentHint !== undefined) parts.push(`idempotent ${hints.idempotentHint}`);
  return parts.length > 0 ? parts.join(', ') : 'nothing';
}
