import type { HookOutcome } from '../hooks/hook-runner';
import { ProviderError } from '../provider/errors';
import type { DiscoveredWindow } from '../provider/context-window';
import type { AttemptReport, ChatMessage, CompletionEvent, Provider, ToolDefinition } from '../provider/provider';
import type { AnyEntry } from '../tree/entry-types';
import type { AgentDeps } from './agent-deps';
import { contextView, isCollapsible, renderEntries, renderView, type ContextView } from './context';
import { AppendBatch, currentHead } from './cursor';
import type { EventSink } from './events';
import { taskStateText } from './plan-nudges';
import { CHARACTER_ESTIMATE, type TokenCounter } from './token-counter';
import { taskStateAt } from './task-state';
import { addNotices, emitNotices, noticesOf, runHooks } from './turn-hooks';

export const DEFAULT_COMPACTION_THRESHOLD = 0.5;
const DEFAULT_TAIL_MESSAGES = 8;
/** A threshold compaction needs at least this many messages before the tail to be worth a model call. */
const MIN_AUTO_SUMMARY_MESSAGES = 4;
/** Summary length asked of the model. */
const SUMMARY_MAX_OUTPUT_TOKENS = 2048;
/** What one message may take of the summarizer's transcript (head and tail kept). */
const TRANSCRIPT_MESSAGE_CHARS = 3000;
/** The transcript's length when the context window is unknown. */
const TRANSCRIPT_DEFAULT_CHARS = 400_000;

export const COMPACTION_PROMPT = [
  "You compact a coding agent's conversation so that it can go on with less context.",
  'The task state (the plan with its marks, the step in progress and the last action) is kept apart and sent',
  'beside your summary word for word: do not restate the plan.',
  'Read the transcript and write the state of the task in Markdown, with exactly these sections:',
  '## Goal — what the user wants, in their words where it matters.',
  '## Decisions — one line per decision or finished piece of work: what, and why.',
  '## Files touched — paths read, written or edited, one line each with what changed.',
  '## Open questions — what is unknown, failed or waiting on the user.',
  '## Next step — the very next thing to do.',
  'Be concrete: paths, names, commands, error messages. Leave out chatter. Do not call tools.',
].join('\n');

export type CompactionTrigger = 'threshold' | 'overflow' | 'manual';

export type CompactionResult =
  | {
      readonly kind: 'collapsed' | 'summarized';
      readonly entryId: string;
      readonly estimatedTokensBefore: number;
      readonly estimatedTokensAfter: number;
      readonly replacedEntries: number;
      readonly collapsedResults: number;
    }
  | {
      readonly kind: 'skipped' | 'blocked' | 'failed';
      readonly reason: string;
      readonly estimatedTokensBefore: number;
    };

interface CompactionContext {
  readonly deps: AgentDeps;
  /** The session's model. */
  readonly model: string;
  /** The model's context window, when known. */
  readonly windowTokens: number | null;
  /** Writes the usage ledger row of one attempt of the summary call. */
  readonly recordAttempt: (report: AttemptReport, entryId: string | null) => void;
}

/**
 * An estimate of the prompt's size in tokens, tool definitions included, counted by `counter`
 * (default characters / 4); each message and call adds a few tokens of framing.
 */
export function estimateTokens(
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[] = [],
  counter: TokenCounter = CHARACTER_ESTIMATE,
): number {
  let tokens = 0;
  for (const message of messages) {
    tokens += counter.count(message.content) + 2;
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? [])
        tokens += counter.count(call.name) + counter.count(call.arguments) + counter.count(call.id) + 4;
    if (message.role === 'tool') tokens += counter.count(message.toolCallId);
  }
  for (const tool of tools) tokens += counter.count(JSON.stringify(tool));
  return Math.ceil(tokens);
}

/**
 * Where the hot tail starts: the last `tailMessages` messages, moved back to the assistant entry
 * that opened a tool round, so that a call is never split from its results.
 */
function hotTailStart(entries: readonly AnyEntry[], tailMessages: number): number {
  const inRound = insideRound(entries);
  let count = 0;
  let i = entries.length;
  while (i > 0 && count < tailMessages) {
    i--;
    if (sendsMessage(entries[i]!)) count++;
  }
  while (i > 0 && inRound[i]) i--;
  return i;
}

/** What a compaction will do, decided from the conversation before anything runs. */
interface CompactionPlan {
  readonly trigger: CompactionTrigger;
  readonly mode: 'collapse' | 'summary';
  readonly view: ContextView;
  /** Index in `view.entries` of the hot tail's first entry. */
  readonly tailStart: number;
  readonly before: number;
  readonly afterCollapse: number;
  readonly collapsible: number;
}

/** Compacts the conversation under the head: cold results first, then a summary. Never throws for the world's failures. */
export async function compactConversation(
  ctx: CompactionContext,
  trigger: CompactionTrigger,
  signal: AbortSignal,
  emit: EventSink,
): Promise<CompactionResult> {
  const plan = planCompaction(ctx, trigger);
  if (!('mode' in plan)) return plan;
  const { deps } = ctx;
  const window = ctx.windowTokens === null ? {} : { context_window_tokens: ctx.windowTokens };
  const hook = await runHooks(
    deps,
    ctx.model,
    'preCompact',
    { trigger, estimated_tokens: plan.before, ...window },
    { failClosed: false, signal },
  );
  if (hook?.verdict === 'block')
    return refuse(
      ctx,
      hook,
      'blocked',
      `a preCompact hook prevented the compaction: ${hook.blockReason ?? ''}`,
      plan.before,
      emit,
    );
  if (plan.mode === 'collapse') {
    const text = `collapsed ${plan.collapsible} cold tool results older than the last messages to one line each`;
    return commitCompaction(
      ctx,
      plan,
      hook,
      { kind: 'collapse', text, model: '', replacedEntries: plan.collapsible },
      plan.afterCollapse,
      emit,
    );
  }
  const summary = await summarize(ctx, plan.view, plan.tailStart, signal, emit);
  if (!summary.ok) return refuse(ctx, hook, 'failed', `compaction failed: ${summary.reason}`, plan.before, emit);
  const kept = renderEntries(plan.view.entries.slice(plan.tailStart));
  const cold = coldZone(deps);
  const after = estimateTokens(
    [
      { role: 'system', content: deps.systemPrompt },
      { role: 'user', content: summary.text },
      ...(cold === null ? [] : [{ role: 'user' as const, content: cold }]),
      ...kept,
    ],
    deps.tools.definitions(),
  );
  return commitCompaction(
    ctx,
    plan,
    hook,
    { kind: 'summary', text: summary.text, model: summary.model, replacedEntries: plan.tailStart },
    after,
    emit,
  );
}

/**
 * Whether a threshold compaction could do anything now, at any context window: with no cold tool
 * result before the hot tail to collapse, and too few messages before it to summarize, it is
 * skipped whatever the window is (as `planCompaction` decides), so the window need not be known
 * before this model call. O(path).
 */
export function thresholdCompactionPossible(deps: AgentDeps): boolean {
  const view = contextView(deps.store.tree.pathTo(currentHead(deps.store).entryId));
  const tailStart = hotTailStart(view.entries, deps.compaction?.tailMessages ?? DEFAULT_TAIL_MESSAGES);
  if (countCollapsible(view, tailStart) > 0) return true;
  return view.entries.slice(0, tailStart).filter(sendsMessage).length >= MIN_AUTO_SUMMARY_MESSAGES;
}

/** Collapse when that alone brings a threshold compaction under the limit; else summarize, when there is enough to. */
function planCompaction(ctx: CompactionContext, trigger: CompactionTrigger): CompactionPlan | CompactionResult {
  const { deps } = ctx;
  const settings = deps.compaction ?? {};
  if (trigger === 'threshold' && ctx.windowTokens === null)
    return { kind: 'skipped', reason: 'the context window is not known', estimatedTokensBefore: 0 };
  const view = contextView(deps.store.tree.pathTo(currentHead(deps.store).entryId));
  const tools = deps.tools.definitions();
  const before = estimateTokens(renderView(deps.systemPrompt, view), tools);
  const limit =
    ctx.windowTokens === null
      ? null
      : Math.floor(ctx.windowTokens * (settings.threshold ?? DEFAULT_COMPACTION_THRESHOLD));
  if (trigger === 'threshold' && limit !== null && before < limit)
    return { kind: 'skipped', reason: 'under the threshold', estimatedTokensBefore: before };
  const tailMessages = settings.tailMessages ?? DEFAULT_TAIL_MESSAGES;
  const tailStart = hotTailStart(view.entries, tailMessages);
  const collapsible = countCollapsible(view, tailStart);
  const afterCollapse = estimateTokens(renderView(deps.systemPrompt, view, tailStart), tools);
  const mode =
    trigger === 'threshold' && collapsible > 0 && limit !== null && afterCollapse < limit ? 'collapse' : 'summary';
  const older = view.entries.slice(0, tailStart).filter(sendsMessage).length;
  if (mode === 'summary' && older < (trigger === 'threshold' ? MIN_AUTO_SUMMARY_MESSAGES : 1)) {
    return {
      kind: 'skipped',
      reason: `the conversation is still within its last ${tailMessages} messages, which are always kept whole`,
      estimatedTokensBefore: before,
    };
  }
  return { trigger, mode, view, tailStart, before, afterCollapse, collapsible };
}

interface SummaryDraft {
  readonly kind: 'summary' | 'collapse';
  readonly text: string;
  readonly model: string;
  readonly replacedEntries: number;
}

/** The summary entry (after the preCompact hook's notices) in one commit, under the head. */
function commitCompaction(
  ctx: CompactionContext,
  plan: CompactionPlan,
  hook: HookOutcome | null,
  draft: SummaryDraft,
  after: number,
  emit: EventSink,
): CompactionResult {
  const notices = noticesOf(hook);
  const batch = new AppendBatch(ctx.deps.store);
  addNotices(batch, notices);
  const tailFrom = plan.view.entries[plan.tailStart];
  const { trigger, before, collapsible } = plan;
  const entryId = batch.entry('summary', {
    ...draft,
    ...(tailFrom ? { tailFromEntryId: tailFrom.id } : {}),
    collapsedResults: collapsible,
    trigger,
    estimatedTokensBefore: before,
    estimatedTokensAfter: after,
  });
  ctx.deps.store.commit(batch.build());
  emitNotices(notices, emit);
  const kind = draft.kind === 'collapse' ? 'collapsed' : 'summarized';
  const counts = {
    estimatedTokensBefore: before,
    estimatedTokensAfter: after,
    replacedEntries: draft.replacedEntries,
    collapsedResults: collapsible,
  };
  emit({ type: 'compacted', kind, trigger, entryId, ...counts });
  return { kind, entryId, ...counts };
}

/** A compaction that did not happen: the hook notices and the reason go into the transcript. */
function refuse(
  ctx: CompactionContext,
  hook: HookOutcome | null,
  kind: 'blocked' | 'failed',
  reason: string,
  before: number,
  emit: EventSink,
): CompactionResult {
  const notices = [...noticesOf(hook), { level: 'warn' as const, source: 'loop' as const, text: reason }];
  if (!ctx.deps.store.readOnly) {
    const batch = new AppendBatch(ctx.deps.store);
    addNotices(batch, notices);
    ctx.deps.store.commit(batch.build());
  }
  emitNotices(notices, emit);
  return { kind, reason, estimatedTokensBefore: before };
}

type SummaryReply =
  | { readonly ok: true; readonly text: string; readonly model: string }
  | { readonly ok: false; readonly reason: string };

/** Asks the model for the task state of everything before the tail. Every attempt writes a ledger row. */
async function summarize(
  ctx: CompactionContext,
  view: ContextView,
  tailStart: number,
  signal: AbortSignal,
  emit: EventSink,
): Promise<SummaryReply> {
  const { deps } = ctx;
  const model = deps.compaction?.model ?? ctx.model;
  const headId = currentHead(deps.store).entryId;
  const older = renderEntries(view.entries.slice(0, tailStart), tailStart);
  const maxChars =
    ctx.windowTokens === null ? TRANSCRIPT_DEFAULT_CHARS : Math.max(4_000, Math.floor(ctx.windowTokens * 4 * 0.6));
  const earlier = view.summary
    ? `Summary of the conversation before this transcript:\n${view.summary.payload.text}\n\n`
    : '';
  const transcript = `${clipMiddle(`${earlier}Transcript:\n${transcriptOf(older)}`, maxChars)}${coldZoneNote(deps)}`;
  let ledgerFailure: unknown = null;
  const onEvent = (event: CompletionEvent): void => {
    if (event.type !== 'attempt') return; // the summary is not the assistant's answer: no text events
    emit({ type: 'attempt', report: event.report });
    try {
      ctx.recordAttempt(event.report, headId);
    } catch (error) {
      ledgerFailure ??= error;
    }
  };
  try {
    const result = await deps.provider.complete(
      {
        model,
        messages: [
          { role: 'system', content: COMPACTION_PROMPT },
          { role: 'user', content: transcript },
        ],
        tools: [],
        signal,
        maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS,
      },
      onEvent,
    );
    if (ledgerFailure) throw ledgerFailure;
    const text = result.text.trim();
    return text === ''
      ? { ok: false, reason: `${model} returned an empty summary` }
      : { ok: true, text, model: result.model };
  } catch (error) {
    if (ledgerFailure) throw ledgerFailure;
    if (error instanceof ProviderError)
      return { ok: false, reason: `${error.message}${error.hint ? ` (${error.hint})` : ''}` };
    throw error;
  }
}

/**
 * The cold zone of a compaction: the branch's task state, when it has a plan. It is not part of
 * the summary's text: every request builds it afresh from the path (see `requestMessages`), so the
 * plan is the same before and after a compaction, and later plan updates show in it.
 */
function coldZone(deps: AgentDeps): string | null {
  const state = taskStateAt(deps.store);
  return state.plan.length === 0 ? null : taskStateText(state);
}

/** The task state as the summarizer is shown it, after the transcript. */
function coldZoneNote(deps: AgentDeps): string {
  const cold = coldZone(deps);
  return cold === null ? '' : `\n\nKept beside your summary (do not restate it):\n${cold}`;
}

/** A plain-text transcript for the summarizer: tool calls and results flattened to lines. */
function transcriptOf(messages: readonly ChatMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        lines.push(`USER: ${clipMiddle(message.content, TRANSCRIPT_MESSAGE_CHARS)}`);
        break;
      case 'assistant':
        if (message.content !== '') lines.push(`ASSISTANT: ${clipMiddle(message.content, TRANSCRIPT_MESSAGE_CHARS)}`);
        for (const call of message.toolCalls ?? [])
          lines.push(`ASSISTANT CALLS ${call.name} ${clipMiddle(call.arguments, TRANSCRIPT_MESSAGE_CHARS)}`);
        break;
      case 'tool':
        lines.push(`RESULT: ${clipMiddle(message.content, TRANSCRIPT_MESSAGE_CHARS)}`);
        break;
    }
  }
  return lines.join('\n');
}

function clipMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars * 0.3);
  const tail = maxChars - head;
  return `${text.slice(0, head)}\n[... ${text.length - head - tail} characters left out ...]\n${text.slice(text.length - tail)}`;
}

function countCollapsible(view: ContextView, tailStart: number): number {
  let n = 0;
  for (let i = view.collapseBefore; i < tailStart; i++) if (isCollapsible(view.entries[i]!)) n++;
  return n;
}

function sendsMessage(entry: AnyEntry): boolean {
  switch (entry.type) {
    case 'user':
      return entry.payload.blocked === undefined;
    case 'assistant':
    case 'tool_result':
      return true;
    case 'notice':
      return entry.payload.toModel === true;
    case 'restore_result':
      return entry.payload.outcome === 'ok';
    default:
      return false;
  }
}

/** For each entry: does it sit inside a tool round whose results are not all in yet? */
function insideRound(entries: readonly AnyEntry[]): boolean[] {
  const flags: boolean[] = [];
  let open = new Set<string>();
  for (const entry of entries) {
    flags.push(open.size > 0);
    if (entry.type === 'user') open = new Set();
    if (entry.type === 'assistant') open = new Set(entry.payload.toolCalls.map((c) => c.id));
    if (entry.type === 'tool_result') open.delete(entry.payload.callId);
  }
  return flags;
}

/**
 * The context window the provider's server reports for a model: its own discovery (the model
 * list, then llama.cpp, Ollama and LM Studio APIs) when it has one, else its model list; null
 * when nothing says.
 */
export async function discoverContextWindow(
  provider: Provider,
  model: string,
  signal: AbortSignal,
): Promise<DiscoveredWindow | null> {
  const asked = provider as Provider & {
    contextWindow?: (model: string, signal?: AbortSignal) => Promise<DiscoveredWindow | null>;
    listModels?: (signal?: AbortSignal) => Promise<readonly { id: string; contextWindowTokens?: number }[]>;
  };
  try {
    if (typeof asked.contextWindow === 'function') return await asked.contextWindow(model, signal);
    if (typeof asked.listModels !== 'function') return null;
    const tokens = (await asked.listModels(signal)).find((m) => m.id === model)?.contextWindowTokens;
    return tokens === undefined ? null : { tokens, source: 'the model list' };
  } catch {
    return null; // no list, no window: compaction then runs on overflow and by hand only
  }
}
