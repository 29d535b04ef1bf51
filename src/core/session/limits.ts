/** Limits on one turn, so that a confused or looping model always stops. */
export interface LoopLimits {
  /** Model calls per turn; past it the turn stops softly. */
  readonly maxSteps: number;
  /** Consecutive rounds in which every tool call failed or was denied, before a nudge. */
  readonly nudgeAfterFailingRounds: number;
  /** ... and before the turn is aborted. */
  readonly abortAfterFailingRounds: number;
  /** Rounds running with the very same calls, before a stall nudge (twice that: abort). */
  readonly stallRounds: number;
  /** Tool rounds without a plan change (update_plan, or a PLAN: list in the text) before a replan nudge. */
  readonly replanAfterRounds: number;
  /** Every this many tool rounds, the task state goes with the request, before the newest messages. */
  readonly reinjectPlanEveryRounds: number;
}

export const DEFAULT_LIMITS: LoopLimits = {
  maxSteps: 50,
  nudgeAfterFailingRounds: 5,
  abortAfterFailingRounds: 10,
  stallRounds: 5,
  replanAfterRounds: 8,
  reinjectPlanEveryRounds: 10,
};

export type GuardVerdict =
  | { readonly action: 'continue' }
  | { readonly action: 'nudge'; readonly text: string }
  | { readonly action: 'abort'; readonly text: string };

export interface RoundCall {
  readonly name: string;
  readonly arguments: string;
  readonly ok: boolean;
}

/** Watches tool rounds for repeated failure and stalls. */
export class LoopGuard {
  private failingRounds = 0;
  private sameRounds = 0;
  private lastSignature = '';

  constructor(private readonly limits: LoopLimits) {}

  afterRound(calls: readonly RoundCall[]): GuardVerdict {
    const failing = calls.length > 0 && calls.every((c) => !c.ok);
    this.failingRounds = failing ? this.failingRounds + 1 : 0;
    const signature = JSON.stringify(calls.map((c) => [c.name, c.arguments]));
    this.sameRounds = signature === this.lastSignature ? this.sameRounds + 1 : 1;
    this.lastSignature = signature;
    const { abortAfterFailingRounds: abortAt, nudgeAfterFailingRounds: nudgeAt, stallRounds } = this.limits;
    if (this.failingRounds >= abortAt) {
      return { action: 'abort', text: `stopped: ${this.failingRounds} tool rounds in a row failed or were denied` };
    }
    if (this.sameRounds >= stallRounds * 2) {
      return { action: 'abort', text: `stopped: the same tool calls were made ${this.sameRounds} rounds running` };
    }
    if (this.failingRounds === nudgeAt) {
      return {
        action: 'nudge',
        text: `The last ${nudgeAt} tool rounds all failed or were denied. Stop repeating them: explain the problem or try a different approach.`,
      };
    }
    if (this.sameRounds === stallRounds) {
      return {
        action: 'nudge',
        text: `You have made the same tool calls ${stallRounds} rounds running. They will not give a different answer: change approach or answer with what you have.`,
      };
    }
    return { action: 'continue' };
  }
}

/** Why a turn stopped at its step limit, or null while `step` is within it. */
export function stepLimitText(step: number, maxSteps: number): string | null {
  if (step <= maxSteps) return null;
  return `stopped after ${maxSteps} model calls (max steps); send another prompt to continue`;
}
