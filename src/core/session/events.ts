import type { ApprovalRequest } from '../approval/approver';
import type { MachineState } from '../machine/machine';
import type { AttemptReport } from '../provider/provider';
import type { UsageRecord } from '../storage/records';
import type { Risk } from '../approval/risk';
import type { PlanStep } from '../tools/builtin/update-plan';

/** `blocked`: a userPrompt hook blocked the prompt; the model was not called. */
export type TurnOutcome = 'done' | 'aborted' | 'error' | 'limit' | 'blocked';

/** What a running turn tells its host. Core never prints: hosts render these. */
export type SessionEvent =
  /** `promptEntryId`: the prompt the turn answers (a retry asks again from an entry already there; null at the root). */
  | { readonly type: 'turn-started'; readonly promptEntryId: string | null; readonly lane: string }
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'reasoning'; readonly delta: string }
  /** The model declines to answer: its words, apart from the text. */
  | { readonly type: 'refusal'; readonly delta: string }
  /** A model stream opened: silence beyond these limits ends the attempt (hosts show the wait). */
  | { readonly type: 'stream-open'; readonly firstTokenLimitMs: number; readonly idleLimitMs: number }
  /** Output arrived on the open stream (a tool call's arguments, which have no event of their own). */
  | { readonly type: 'stream-activity' }
  /** A retry started over: drop the partial text streamed so far. */
  | { readonly type: 'discard' }
  | { readonly type: 'attempt'; readonly report: AttemptReport }
  | { readonly type: 'usage'; readonly row: UsageRecord }
  | {
      readonly type: 'tool-call';
      readonly callId: string;
      readonly tool: string;
      readonly subject: string;
      readonly risk: Risk;
    }
  | { readonly type: 'approval-needed'; readonly request: ApprovalRequest }
  | {
      readonly type: 'tool-result';
      readonly callId: string;
      readonly tool: string;
      readonly outcome: string;
      readonly entryId: string;
    }
  | { readonly type: 'state'; readonly state: MachineState }
  | { readonly type: 'notice'; readonly level: 'info' | 'warn' | 'error'; readonly text: string }
  | { readonly type: 'error'; readonly kind: string; readonly message: string; readonly hint: string }
  /** The conversation was compacted: a summary (or a collapse of cold results) entry was appended. */
  | {
      readonly type: 'compacted';
      readonly kind: 'collapsed' | 'summarized';
      readonly trigger: 'threshold' | 'overflow' | 'manual';
      readonly entryId: string;
      readonly estimatedTokensBefore: number;
      readonly estimatedTokensAfter: number;
      readonly replacedEntries: number;
      readonly collapsedResults: number;
    }
  /**
   * The branch's plan changed: set by update_plan (`tool`) or read from the model's PLAN:/checklist
   * lines (`inferred`). `current`: the step in progress (else the first pending one).
   */
  | {
      readonly type: 'plan';
      readonly entryId: string;
      readonly source: 'tool' | 'inferred';
      readonly plan: readonly PlanStep[];
      readonly explanation: string | null;
      readonly current: number | null;
    }
  /**
   * A restore's files are being written (its entry `entryId` is committed): from here Esc no longer
   * stops it, since stopping part way would leave some files restored and others not; it goes on to
   * its end, and its result says how it ended.
   */
  | { readonly type: 'restore-writing'; readonly entryId: string }
  /** A steering message was committed as a user entry and goes to the model with the next call. */
  | { readonly type: 'steered'; readonly entryId: string; readonly text: string }
  /** `refused`: the text is the model's refusal (it declined to answer). */
  | { readonly type: 'turn-ended'; readonly outcome: TurnOutcome; readonly text: string; readonly refused?: true };

export type EventSink = (event: SessionEvent) => void;
