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
  /**
   * ReadOnly only: a program of the line that tole does not know to load no file of the workspace
   * as code or as settings naming a program (`npm` reads the project's .npmrc, whose `git` key it
   * runs; a global `jest` runs the project's copy). Without a sandbox it waits for a key.
   */
  readonly unvettedReader?: string;
  /**
   * ReadOnly only: why a word of the line may name a path outside the workspace (`~/.ssh/id_rsa`,
   * a link out, `cd` alone). Without a sandbox it waits for a key: credentials live out there.
   */
  readonly readsOutside?: string;
  /** The call asks to run outside the sandbox: only a keypress approves it. */
  readonly outsideSandbox?: boolean;
}
