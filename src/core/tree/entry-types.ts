import type { Decision } from '../approval/approver';
import type { ThinkingBlock, ToolCallRequest } from '../provider/provider';
import type { ReplaySafety, ResultTier, ToolDisplay } from '../tools/tool';
import type { Risk } from '../approval/risk';
import type { Attachment } from '../tools/attachment';

/** The payload of each entry type. Entries are immutable: corrections are new entries. */
export interface EntryPayloads {
  user: {
    readonly text: string;
    /** Set when a userPrompt hook blocked the prompt: kept in the transcript, never sent to the model. */
    readonly blocked?: string;
    /** Sent into a running turn (steering): it went to the model at that turn's next call. */
    readonly steered?: true;
    /** The files the prompt attached with `@path`, read when it was committed (read them with `attachmentsOf`). */
    readonly attachments?: readonly Attachment[];
  };
  assistant: {
    readonly text: string;
    readonly reasoning?: string;
    /** The signed thinking blocks (Anthropic), sent back unchanged with the tool round they led to. */
    readonly thinking?: readonly ThinkingBlock[];
    /** The model declined: its explanation (the text is then usually empty). */
    readonly refusal?: string;
    readonly toolCalls: readonly ToolCallRequest[];
    readonly model: string;
    readonly finishReason: string;
  };
  /** The intent half of the effect sandwich: committed before the tool runs. */
  tool_intent: {
    readonly callId: string;
    readonly tool: string;
    readonly input: unknown;
    readonly subject: string;
    readonly risk: Risk;
    readonly reason: string;
    readonly replay: ReplaySafety;
    /** Set when the decision was known at intent time (policy, rule, --yes, headless denial). */
    readonly approval: Decision | null;
    readonly prepared?: unknown;
    /** The workspace checkpoint taken before the effect (set when the approval was known at intent time). */
    readonly checkpoint?: string;
    /** A `!command` the user typed: the model did not ask for it, and reads it as the user's. */
    readonly by?: 'user';
  };
  /** An interactive decision, committed before the effect runs (with the checkpoint taken after it). */
  approval: { readonly callId: string; readonly decision: Decision; readonly checkpoint?: string };
  /** The settlement: exactly one per intent. */
  tool_result: {
    readonly callId: string;
    readonly tool: string;
    readonly outcome: 'ok' | 'error' | 'denied' | 'interrupted' | 'blocked';
    readonly content: string;
    readonly display?: ToolDisplay;
    readonly tier: ResultTier;
    readonly durationMs?: number;
    /** How the settlement came about when it was not a plain run. */
    readonly resumedBy?: 'rerun' | 'guard' | 'never-replay';
  };
  /**
   * Conversation compaction: later requests send this in place of the entries before it (the
   * hot tail from `tailFromEntryId` on still goes verbatim). A `collapse` sends no text: cold tool
   * results before `tailFromEntryId` go as one line each.
   */
  summary: {
    readonly text: string;
    readonly replacedEntries: number;
    /** The model that wrote the summary; '' for a collapse. */
    readonly model: string;
    /** Absent in older files: 'summary'. */
    readonly kind?: 'summary' | 'collapse';
    /** The first entry sent verbatim after the summary; absent: none before the summary itself. */
    readonly tailFromEntryId?: string;
    readonly collapsedResults?: number;
    readonly trigger?: 'threshold' | 'overflow' | 'manual';
    /** chars/4 estimates of the prompt, before and after. */
    readonly estimatedTokensBefore?: number;
    readonly estimatedTokensAfter?: number;
  };
  /**
   * The intent of a file restore: the workspace goes back to `target` (the files as they were at
   * `targetEntryId`). `checkpoint` is taken first, so the restore can be undone in turn.
   */
  restore: {
    readonly restoreId: string;
    readonly targetEntryId: string;
    readonly target: string;
    readonly checkpoint?: string;
    readonly added: number;
    readonly changed: number;
    readonly removed: number;
  };
  /** The settlement of a restore: exactly one per restore intent. */
  restore_result: {
    readonly restoreId: string;
    readonly targetEntryId: string;
    readonly outcome: 'ok' | 'error';
    readonly content: string;
    readonly added: number;
    readonly changed: number;
    readonly removed: number;
    readonly resumed?: boolean;
  };
  /** Something the user (and, when `toModel`, the model) should know: hook output, nudges, errors. */
  notice: {
    readonly level: 'info' | 'warn' | 'error';
    readonly source: 'hook' | 'loop' | 'resume' | 'provider' | 'user' | 'checkpoint' | 'config';
    readonly text: string;
    readonly toModel?: boolean;
  };
}

export type EntryType = keyof EntryPayloads;

export interface Entry<T extends EntryType = EntryType> {
  readonly id: string;
  readonly parentId: string | null;
  readonly seq: number;
  readonly timestamp: number;
  readonly type: T;
  readonly payload: EntryPayloads[T];
}

export type AnyEntry = { [T in EntryType]: Entry<T> }[EntryType];

export const ENTRY_TYPES: readonly EntryType[] = [
  'user',
  'assistant',
  'tool_intent',
  'approval',
  'tool_result',
  'summary',
  'notice',
  'restore',
  'restore_result',
];

export function isEntryType(type: string): type is EntryType {
  return (ENTRY_TYPES as readonly string[]).includes(type);
}
