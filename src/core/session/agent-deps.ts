import type { ApprovalPolicy } from '../approval/approval-policy';
import type { HookRunner } from '../hooks/hook-runner';
import type { Approver } from '../approval/approver';
import type { AttemptReport, GenerationSettings, Provider } from '../provider/provider';
import type { Checkpoints } from '../checkpoints/checkpoint-store';
import type { SessionStore } from '../storage/session-store';
import type { ToolRegistry } from '../tools/registry';
import type { CompactionSettings } from './compaction-settings';
import type { LoopLimits } from './limits';
import type { SessionBudget } from './session-budget';

/**
 * Test-only fault injection points of the effect sandwich: after the checkpoint is taken and
 * before the line that names it is committed, after the intent, during the effect, before the
 * settlement, and in the middle of a file restore (after its removals, before its writes).
 */
export type FaultPoint = 'after-checkpoint' | 'after-intent' | 'during-effect' | 'before-settlement' | 'during-restore';
export const FAULT_POINTS: readonly FaultPoint[] = [
  'after-checkpoint',
  'after-intent',
  'during-effect',
  'before-settlement',
  'during-restore',
];

interface PricedAttempt {
  readonly costUsdMicros: number;
  readonly priced: boolean;
}

/** Tools that come from outside tole (MCP servers): they must be offered before a turn or a resume uses the registry. */
export interface ExternalTools {
  /** Resolves once every source has offered its tools or failed (each within its own timeout), or on abort. */
  ready(signal: AbortSignal): Promise<void>;
}

/** Everything a turn needs, handed in by the host. */
export interface AgentDeps {
  readonly store: SessionStore;
  readonly provider: Provider;
  readonly tools: ToolRegistry;
  readonly policy: ApprovalPolicy;
  /** The host's interactive approver (the TUI); null in headless mode. */
  readonly approver: Approver | null;
  readonly workspaceRoot: string;
  readonly systemPrompt: string;
  readonly limits: LoopLimits;
  /** Sampling settings every model call of a turn carries (config `generation`). */
  readonly generation?: GenerationSettings;
  readonly price: (report: AttemptReport) => PricedAttempt;
  /** Shell hooks from config (`HookRunner.create({ config, cwd })`); none when absent. */
  readonly hooks?: HookRunner;
  /** The model's context window in tokens (from the provider settings), when known. */
  readonly contextWindowTokens?: number;
  /**
   * Conversation compaction. Without it a turn compacts by threshold only when
   * `contextWindowTokens` is known; with it, the window may also come from the provider's model list.
   */
  readonly compaction?: CompactionSettings;
  /** MCP servers: started (or waited for) before the first turn and before a resume. */
  readonly externalTools?: ExternalTools;
  /**
   * Workspace checkpoints, taken before every call that can change files (any call that is not
   * ReadOnly). Without it, no checkpoints are taken.
   */
  readonly checkpoints?: Checkpoints;
  /** The most tool output the model reads from one call, in UTF-8 bytes (`limits.toolOutputCapBytes`; default 32 KiB). */
  readonly toolOutputCapBytes?: number;
  /**
   * How many ReadOnly calls of one model reply run at once (default 8). Consecutive calls that
   * are ReadOnly and allowed without asking run side by side; their intents and settlements are
   * still committed in the calls' order. 1 runs every call one at a time.
   */
  readonly readConcurrency?: number;
  /**
   * The session's budget (`limits.maxSessionCostUsd`), shared by its sub-agents: before every model
   * call of a turn, a budget reached stops it. None when no budget is set.
   */
  readonly budget?: SessionBudget;
  /**
   * Where approvals given here are recorded as given (`approvalPlace`: this user, machine and
   * tole home); a pending call approved elsewhere is asked again on resume. Default: this user
   * and machine with ~/.tole.
   */
  readonly place?: string;
  /** Called at each fault point of every tool call; the test host kills itself there. */
  readonly fault?: (point: FaultPoint) => void;
}
