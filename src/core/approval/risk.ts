/**
 * The risk tiers the approval layer reasons about. Tools, the bash classifier and MCP all speak
 * in these, so they live here, below the tools that declare them.
 */
export type Risk = 'ReadOnly' | 'Write' | 'Destructive';

export const RISK_ORDER: Record<Risk, number> = { ReadOnly: 0, Write: 1, Destructive: 2 };

export interface RiskAssessment {
  readonly risk: Risk;
  /** Why, in words a user reads in the approval prompt: "`rm -r` removes a directory tree". */
  readonly reason: string;
  /** It runs code tole cannot see into (`python3 -c`, `make`, `./script.sh`): without a sandbox, only a keypress or an exact allow rule runs it. */
  readonly opaque?: boolean;
  /** The call asks to run outside the sandbox: only a keypress approves it. */
  readonly outsideSandbox?: boolean;
}
