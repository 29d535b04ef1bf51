/** A Provider that plays scripted replies in memory: text in chunks, tool calls, waits that an abort cuts short. */
import { ProviderError } from '../../src/core/provider/errors';
import type {
  CompletionEvent,
  CompletionRequest,
  CompletionResult,
  Provider,
  ToolCallRequest,
} from '../../src/core/provider/provider';

export interface ScriptedTurn {
  readonly chunks?: readonly string[];
  readonly toolCalls?: readonly ToolCallRequest[];
  /** Wait between chunks. */
  readonly delayMs?: number;
  /** Never finish: stream the chunks, then wait until aborted. */
  readonly hang?: boolean;
  /**
   * Stream this many chunks, then send the rest only once `stallUntil` settles (an abort ends the
   * wait): a test holds the reply open until it has seen what a running turn shows, instead of
   * hoping a delay between chunks is long enough.
   */
  readonly stallAfterChunks?: number;
  readonly stallUntil?: Promise<unknown>;
}

function cancelled(): ProviderError {
  return new ProviderError({ kind: 'aborted', message: 'the request was cancelled', hint: 'cancelled' });
}

/** Until `promise` settles; rejects as cancelled if `signal` aborts first. */
function held(promise: Promise<unknown>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelled());
    const onAbort = (): void => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    const done = (): void => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    promise.then(done, done);
  });
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted)
      return reject(new ProviderError({ kind: 'aborted', message: 'the request was cancelled', hint: 'cancelled' }));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new ProviderError({ kind: 'aborted', message: 'the request was cancelled', hint: 'cancelled' }));
      },
      { once: true },
    );
  });
}

export class ScriptedProvider implements Provider {
  readonly name = 'scripted';
  readonly requests: CompletionRequest[] = [];
  private next = 0;

  constructor(private readonly turns: readonly ScriptedTurn[]) {}

  async complete(request: CompletionRequest, onEvent: (event: CompletionEvent) => void): Promise<CompletionResult> {
    this.requests.push(request);
    const turn = this.turns[this.next++] ?? { chunks: ['(no more scripted replies)'] };
    let text = '';
    for (const [sent, chunk] of (turn.chunks ?? []).entries()) {
      if (sent === turn.stallAfterChunks && turn.stallUntil !== undefined) await held(turn.stallUntil, request.signal);
      await wait(turn.delayMs ?? 1, request.signal);
      text += chunk;
      onEvent({ type: 'text', delta: chunk });
    }
    if (turn.hang) await wait(60_000, request.signal);
    const usage = {
      inputTokens: 1000,
      outputTokens: Math.ceil(text.length / 4),
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
    };
    onEvent({ type: 'attempt', report: { model: request.model, attempt: 1, outcome: 'ok', usage, latencyMs: 5 } });
    const toolCalls = turn.toolCalls ?? [];
    return {
      model: request.model,
      text,
      reasoning: '',
      toolCalls,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
      usage,
    };
  }
}
