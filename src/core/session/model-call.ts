import { ProviderError } from '../provider/errors';
import type { AttemptReport, CompletionEvent, CompletionResult } from '../provider/provider';
import type { DraftRecord } from '../storage/records';
import type { UsageRow } from '../usage/usage-row';
import type { AgentDeps } from './agent-deps';
import type { CompactionResult } from './compaction';
import { currentHead, laneForAppend } from './cursor';
import { cutAttemptUsage } from './cut-attempt-usage';
import type { EventSink } from './events';
import { requestMessages } from './plan-reinjection';

export type ModelFailure = { readonly ok: false; readonly error: ProviderError; readonly partial: string };
/**
 * A model call's outcome. An answer carries the usage row of the attempt that gave it (`ledger`),
 * not yet committed: it goes into the answer's commit, which follows at once with no wait in between.
 */
export type ModelReply =
  | { readonly ok: true; readonly result: CompletionResult; readonly ledger: readonly DraftRecord[] }
  | ModelFailure;

/** One model call from the checked-out entry, every attempt's usage row committed (the answering one held for the answer). */
export async function callModel(
  deps: AgentDeps,
  model: string,
  windowTokens: number | undefined,
  signal: AbortSignal,
  emit: EventSink,
): Promise<ModelReply> {
  const { store, provider, tools, systemPrompt, limits, generation } = deps;
  const head = currentHead(store);
  const messages = requestMessages(systemPrompt, store.tree.pathTo(head.entryId), limits);
  const definitions = tools.definitions();
  let partial = '';
  // What the attempt under way streamed, in characters: the estimate of its output when it ends
  // without the server's count (a discard clears the shown text, not what was billed).
  let streamedChars = 0;
  let ledgerFailure: unknown = null;
  // The usage row of the attempt that answered goes into the answer's own commit (one write and
  // one fdatasync instead of two, on the way from the last token to the screen); see `ledger`.
  let answered: AttemptReport | null = null;
  const onEvent = (event: CompletionEvent): void => {
    if (event.type === 'text') partial += event.delta;
    if (event.type === 'text' || event.type === 'reasoning' || event.type === 'refusal')
      streamedChars += event.delta.length;
    if (event.type === 'discard') partial = '';
    if (event.type === 'tool_call') {
      streamedChars += (event.name?.length ?? 0) + event.argumentsDelta.length;
      emit({ type: 'stream-activity' });
      return;
    }
    if (event.type !== 'attempt') {
      emit(event);
      return;
    }
    emit({ type: 'attempt', report: event.report });
    const cut = cutAttemptUsage(event.report, streamedChars, { messages, tools: definitions });
    streamedChars = 0;
    if (event.report.outcome === 'ok' && answered === null) {
      answered = event.report;
      return;
    }
    try {
      if (cut !== null)
        commitLedger(deps, [usageDraft(deps, { ...event.report, usage: cut }, head.entryId, true)], emit);
      else recordAttempt(deps, event.report, head.entryId, emit);
    } catch (error) {
      ledgerFailure ??= error;
    }
  };
  try {
    const request = {
      model,
      messages,
      tools: definitions,
      signal,
      ...(generation ? { generation } : {}),
      ...(windowTokens === undefined ? {} : { contextWindowTokens: windowTokens }),
    };
    const result = await provider.complete(request, onEvent);
    if (ledgerFailure) throw ledgerFailure;
    const ledger: DraftRecord[] = answered === null ? [] : [usageDraft(deps, answered, head.entryId)];
    return { ok: true, result, ledger };
  } catch (error) {
    // An answered attempt whose call failed after all: its row is not left for an answer that never comes.
    if (answered !== null && ledgerFailure === null) {
      try {
        recordAttempt(deps, answered, head.entryId, emit);
      } catch (failure) {
        ledgerFailure = failure;
      }
    }
    // A usage row that could not be committed is not hidden behind the provider's own failure.
    if (ledgerFailure) throw ledgerFailure;
    if (error instanceof ProviderError) return { ok: false, error, partial };
    throw error;
  }
}

/** Commits an attempt's usage row on a line of its own. */
export function recordAttempt(deps: AgentDeps, report: AttemptReport, entryId: string | null, emit: EventSink): void {
  commitLedger(deps, [usageDraft(deps, report, entryId)], emit);
}

/** Commits usage rows on a line of their own, each announced once written. */
function commitLedger(deps: AgentDeps, rows: readonly DraftRecord[], emit: EventSink): void {
  for (const row of deps.store.commit(rows)) if (row.kind === 'usage') emit({ type: 'usage', row });
}

/**
 * Commits the ledger rows an answer's line would have carried, when that line was not written.
 * Best effort: a failure here is dropped, as the answer's own failure is what the caller reports.
 */
export function keepLedger(deps: AgentDeps, ledger: readonly DraftRecord[], emit: EventSink): void {
  if (ledger.length === 0) return;
  try {
    commitLedger(deps, ledger, emit);
  } catch {
    // The store refused this too (poisoned, out of space): the reopen or the next commit says so.
  }
}

/**
 * The ledger's row for an attempt of a model call made from `entryId`; `estimated` when its tokens
 * are tole's estimate of an attempt cut off mid-stream, not the server's count.
 */
function usageDraft(deps: AgentDeps, report: AttemptReport, entryId: string | null, estimated = false): DraftRecord {
  const { store, price } = deps;
  const priced = price(report);
  const usage: UsageRow = {
    model: report.model,
    attempt: report.attempt,
    outcome: report.outcome,
    inputTokens: report.usage?.inputTokens ?? 0,
    outputTokens: report.usage?.outputTokens ?? 0,
    cachedInputTokens: report.usage?.cachedInputTokens ?? 0,
    cacheWriteTokens: report.usage?.cacheWriteTokens ?? 0,
    costUsdMicros: priced.costUsdMicros,
    priced: priced.priced,
    latencyMs: report.latencyMs,
    lane: laneForAppend(store).lane,
    ...(report.error ? { error: report.error } : {}),
    ...(report.retryInMs !== undefined ? { retryInMs: report.retryInMs } : {}),
    ...(estimated ? { estimated: true as const } : {}),
  };
  return { kind: 'usage', id: store.newUsageId(), entryId, usage };
}

/** A context overflow compacts the conversation (`compact`) and retries the call (`call`) once. */
export async function retryAfterOverflow(
  first: ModelFailure,
  compact: () => Promise<CompactionResult>,
  call: () => Promise<ModelReply>,
): Promise<ModelReply> {
  const compacted = await compact();
  if ('reason' in compacted) {
    return {
      ...first,
      error: overflowError(`${first.error.message}; compaction could not help (${compacted.reason})`, first.error),
    };
  }
  const second = await call();
  if (second.ok || second.error.kind !== 'context_overflow') return second;
  return {
    ...second,
    error: overflowError(
      `the conversation is still too long for the model's context window after compaction: ${second.error.message}`,
      second.error,
    ),
  };
}

function overflowError(message: string, cause: ProviderError): ProviderError {
  return new ProviderError({
    kind: 'context_overflow',
    message,
    hint: "the conversation does not fit the model's context window: start a new session, branch from an earlier entry, or pick a model with a larger window",
    ...(cause.status === undefined ? {} : { status: cause.status }),
    cause,
  });
}
