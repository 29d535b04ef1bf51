import type { ChangePreview } from './change-preview';
import type { Risk } from './risk';
import type { UnconfinedVetting } from './unconfined-vetting';

/** One tool call waiting for a decision. */
export interface ApprovalRequest {
  readonly callId: string;
  readonly tool: string;
  /** The argument that matters: the command line for bash, the path for file tools. */
  readonly subject: string;
  readonly input: unknown;
  readonly risk: Risk;
  /** Why it has that risk, in words the user reads. */
  readonly reason: string;
  /** Runs code tole cannot see into (see RiskAssessment.opaque). */
  readonly opaque?: boolean;
  /** Asks to run outside the sandbox: only a keypress approves it. */
  readonly outsideSandbox?: boolean;
  /** What approving it with a key does, said in the prompt: where it will run. */
  readonly runs?: string;
  /** What a file tool's call will change, for the box to show (`Tool.preview`); not recorded. */
  readonly preview?: ChangePreview;
  /**
   * What tole found before asking that keeps the call from running unconfined (the repository's
   * git config): a key then approves it only to run in the sandbox, or, with no sandbox, not at all
   * (but for a warning, outcome `warned`, which the key accepts to run it unconfined).
   */
  readonly vetting?: UnconfinedVetting;
  /** Set when a sub-agent makes the call: who asks, in words for the prompt ("sub-agent reviewer, session ID"). */
  readonly agent?: string;
}

/**
 * `policy`: ReadOnly; `rule`: an `--allow` rule (named in `rule`); `yes`: `--yes`; `user`: a
 * keypress; `session`: the user allowed the tool for the rest of the session; `prefix`: a command
 * prefix the user allowed for the session (named in `rule`). An approval may carry a `reason` for
 * the record ("approved once at the prompt"), and a keypress the prefix it allowed (`p`).
 */
export type Decision =
  | {
      readonly approved: true;
      readonly by: 'policy' | 'rule' | 'yes' | 'user' | 'session' | 'prefix';
      readonly rule?: string;
      readonly reason?: string;
      /** `p` at the prompt: the command prefix allowed for the rest of the session, as words. */
      readonly allowsPrefix?: readonly string[];
      /** `e` at the prompt: the call as the user edited it, which is what runs (the intent keeps the model's). */
      readonly edited?: EditedCall;
      /**
       * A key approved the call only to run in the sandbox: tole found before asking what keeps it
       * from running unconfined (`ApprovalRequest.vetting`). It runs confined, as a call approved
       * without a key does.
       */
      readonly confined?: true;
      /**
       * The warning the key accepted (ApprovalRequest.vetting, outcome `warned`): the findings, each
       * saying the command goes where tole's git does not reach. The call runs unconfined only if
       * what its run finds is among them.
       */
      readonly accepted?: readonly string[];
    }
  | {
      readonly approved: false;
      /** `policy`: tole refused it whatever the answer (it cannot run here: `ApprovalRequest.vetting`). */
      readonly by: 'user' | 'headless' | 'hook' | 'interrupted' | 'policy';
      readonly reason: string;
      /** What the user typed when denying it (`d` at the prompt): it reaches the model as the call's result. */
      readonly message?: string;
    };

/**
 * A call the user edited before approving it. The screen gives the new subject; core re-reads the
 * call from it (its input, risk and reason) and records all four with the approval.
 */
export interface EditedCall {
  readonly subject: string;
  readonly input?: unknown;
  readonly risk?: Risk;
  readonly reason?: string;
}

/** Decides one request; the interactive one lives in the TUI host, not in core. */
export interface Approver {
  decide(request: ApprovalRequest, signal: AbortSignal): Promise<Decision>;
}
