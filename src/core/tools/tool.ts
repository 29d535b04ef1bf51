import type { ChangePreview } from '../approval/change-preview';
import type { z } from 'zod';
import { RISK_ORDER, type Risk, type RiskAssessment } from '../approval/risk';

export type ReplaySafety = 'idempotent' | 'guarded' | 'never';
/**
 * What a guard found: `true` the effect happened, `false` it did not (running it is safe), or
 * `unknown` with why it cannot tell (the call is then settled as "outcome unknown", never run again).
 */
export type GuardVerdict = boolean | { readonly unknown: string };
/** How compaction treats a result: cold ones are collapsed first, hot ones stay verbatim. */
export type ResultTier = 'hot' | 'warm' | 'cold';

export interface ToolContext {
  /** Absolute, symlink-resolved directory the file tools are confined to. */
  readonly workspaceRoot: string;
  readonly signal: AbortSignal;
  readonly callId: string;
  /** True when the user approved this very call with a keypress; a call run without one is confined where a sandbox exists. */
  readonly keypress?: boolean;
  /**
   * With `keypress`: the warning the key accepted, shown whole in the approval box (each line says
   * the command goes where tole's git does not reach). What the run finds beyond it is refused.
   */
  readonly accepted?: readonly string[];
  /** What `prepare` returned for this call, as its intent holds it (undefined when the tool has no `prepare`). */
  readonly prepared?: unknown;
}

export interface PreflightContext {
  readonly workspaceRoot: string;
  readonly signal: AbortSignal;
}

/** What `Tool.preflight` found. */
export interface Preflight {
  /** What keeps the call from running unconfined, one line each (`key (in file)`); empty: nothing. */
  readonly unvouched: readonly string[];
}

export interface ToolOutput {
  readonly ok: boolean;
  /** What the model reads (capped by the caller at 32 KiB). */
  readonly content: string;
  /** What the screen shows, when it differs from `content` (a diff, a short summary). */
  readonly display?: ToolDisplay;
}

export type ToolDisplay =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'diff'; readonly path: string; readonly diff: string };

export interface Tool<Input = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<Input>;
  /**
   * The JSON Schema of the arguments as the model sees it, for a tool whose schema came as JSON
   * Schema (an MCP server's); absent, the registry derives it from `inputSchema`.
   */
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly replay: ReplaySafety;
  readonly tier: ResultTier;
  /**
   * The tool's fixed tier, or 'per-call' when `assess` decides from the input (bash). The
   * registry refuses a tool declared Destructive when no interactive approver is wired.
   */
  readonly declaredRisk: Risk | 'per-call';
  /**
   * At most this many calls of the tool run at once when calls of one reply run side by side
   * (a sub-agent is a whole session); unset, only the reply's own limit applies.
   */
  readonly maxParallel?: number;
  /** The risk of this call; most tools have a fixed tier, bash classifies its command line. */
  assess(input: Input): RiskAssessment;
  /** The argument that matters (command line or path): shown on screen, matched by allow rules. */
  subject(input: Input): string;
  /**
   * For a tool whose subject is all of what it runs (bash's command line): the input with the
   * subject the user edited at the approval box (`e`). The result is checked by `inputSchema`.
   */
  withSubject?(input: Input, subject: string): unknown;
  /**
   * For tools that name a workspace path: the subject with the path resolved (what the call really
   * touches, and what the model wrote when that differs). When present it replaces `subject` in
   * the approval prompt, the record and the allow rules' matching, so that `nope/../link/x` is
   * asked about as where it leads.
   */
  resolvedSubject?(input: Input, workspaceRoot: string): Promise<string>;
  /**
   * For tools that change files: what the call will change (a diff, a new file's first lines, what
   * a deletion removes), worked out when the user is asked and shown in the approval box. Never
   * throws for the world's failures: what cannot be read says why.
   */
  preview?(input: Input, workspaceRoot: string): Promise<ChangePreview>;
  /**
   * For tools whose calls may run unconfined (bash): what keeps this call from doing so, found
   * before anyone is asked (what tole cannot vouch for in the repository's git config), so that
   * the approval box says it instead of a key that leads to a refusal. The tool checks again when
   * it runs. Never throws for the world's failures (what cannot be read is left to the run).
   */
  preflight?(input: Input, ctx: PreflightContext): Promise<Preflight>;
  /**
   * Computed before the intent is committed and stored with it: for `guarded` tools, so that
   * `guard` can later tell whether the effect already happened (e.g. the hash of the intended file);
   * for others, what the effect must find again when it is run again on resume (a sub-agent's session id).
   * The effect gets it back as `ToolContext.prepared`.
   */
  prepare?(input: Input, ctx: ToolContext): Promise<unknown>;
  /**
   * For `guarded` tools: whether the effect described by `prepared` has already happened, judged
   * from the world as it is now (someone else may have changed it since), or that it cannot tell.
   */
  guard?(input: Input, prepared: unknown, ctx: ToolContext): Promise<GuardVerdict>;
  execute(input: Input, ctx: ToolContext): Promise<ToolOutput>;
  /**
   * What the call can change in the workspace, as tole itself knows it (checkpoints build on it:
   * checkpoint-store.ts `take`). `none`: tole's own readers. `paths`: a tool that changes only the
   * workspace paths it names, resolved and relative to the workspace root (null when they cannot
   * be resolved). Absent: effects tole cannot name (a shell, an MCP server, a sub-agent), after
   * which the next checkpoint scans the whole workspace.
   */
  readonly workspaceEffect?: WorkspaceEffect<Input>;
}

type WorkspaceEffect<Input> =
  | { readonly kind: 'none' }
  | { readonly kind: 'paths'; paths(input: Input, workspaceRoot: string): Promise<readonly string[] | null> };

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every input type; each checks its own input with zod
export type AnyTool = Tool<any>;

/**
 * The risk of one call: what the tool's `assess` says, never below its fixed declared tier, so
 * that a tool declared Destructive cannot assess itself down to ReadOnly and run unasked.
 */
export function assessCall(tool: AnyTool, input: unknown): RiskAssessment {
  const assessed = tool.assess(input);
  const floor = tool.declaredRisk;
  if (floor === 'per-call' || RISK_ORDER[assessed.risk] >= RISK_ORDER[floor]) return assessed;
  return { ...assessed, risk: floor };
}
