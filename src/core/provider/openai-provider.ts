/**
 * The default provider: the `openai` package's Chat Completions streaming API against any
 * OpenAI-compatible base URL. tole retries (the SDK's own retries are off) so that every attempt
 * is reported, failed ones too.
 *
 * Events per attempt: text / reasoning / tool_call deltas as they arrive; when the attempt fails
 * after some of them, a `discard` (its partial output is void; not sent for a cancel, whose
 * partial output the caller may still want to show); then exactly one `attempt` report, before
 * any wait and the next attempt.
 */
import OpenAI from 'openai';
import type { Clock, Random } from '../clock';
import { randomHex } from '../clock';
import { abortedError, classifyError, ProviderError, streamDroppedError } from './errors';
import type { AttemptReport, CompletionEvent, CompletionRequest, CompletionResult, Provider, TokenUsage } from './provider';
import { StreamAssembly, toModelInfo, toWireMessage, toWireTool, type ModelInfo, type WireChunk, type WireModel } from './openai-wire';
import type { RetryPolicy, Sleep } from './retry';
import { retryDelayMs, retryPolicy, timerSleep } from './retry';

export interface OpenAIProviderOptions {
  /** Shown in the usage ledger and the UI; `openai` unless given. */
  readonly name?: string;
  readonly baseURL: string;
  /** May be empty for local servers. */
  readonly apiKey?: string;
  /** Used when a request names no model. */
  readonly defaultModel?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly retry?: Partial<RetryPolicy>;
  readonly random: Random;
  readonly clock: Clock;
  readonly sleep?: Sleep;
  /** Limit on waiting for the response headers of one attempt. */
  readonly timeoutMs?: number;
  /** Limit on silence inside a started stream; after it the attempt counts as a dropped stream. */
  readonly streamIdleTimeoutMs?: number;
  /** OpenAI's own API wants `max_completion_tokens`; most compatible servers read `max_tokens`. */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** The SDK throws without a key; local servers ignore the one we send. */
const placeholderApiKey = 'tole-no-key';
const defaultTimeoutMs = 600_000;
const defaultStreamIdleTimeoutMs = 300_000;
const maxListedModels = 10_000;

type AttemptOutcomeData =
  | { readonly ok: true; readonly result: CompletionResult }
  | { readonly ok: false; readonly error: ProviderError; readonly usage: TokenUsage | null; readonly emittedOutput: boolean };

export class OpenAIProvider implements Provider {
  readonly name: string;
  readonly baseURL: string;
  private readonly client: OpenAI;
  private readonly policy: RetryPolicy;
  private readonly sleep: Sleep;
  private readonly timeoutMs: number;
  private readonly streamIdleTimeoutMs: number;
  private readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';

  constructor(private readonly options: OpenAIProviderOptions) {
    this.name = options.name ?? 'openai';
    this.baseURL = options.baseURL;
    this.policy = retryPolicy(options.retry);
    this.sleep = options.sleep ?? timerSleep;
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? defaultStreamIdleTimeoutMs;
    this.maxTokensField = options.maxTokensField ?? defaultMaxTokensField(options.baseURL);
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey || placeholderApiKey,
      organization: null,
      project: null,
      webhookSecret: null,
      defaultHeaders: options.headers,
      maxRetries: 0,
      timeout: this.timeoutMs,
      logLevel: 'off',
    });
  }

  async complete(request: CompletionRequest, onEvent: (event: CompletionEvent) => void): Promise<CompletionResult> {
    const model = request.model || this.options.defaultModel || '';
    if (model === '') {
      // A failure of the call, like any other: the turn settles it as an error entry.
      throw new ProviderError({ kind: 'bad_request', message: `no model named for ${this.baseURL}`, hint: 'name one with --model NAME or the config field "model"' });
    }
    for (let attempt = 1; ; attempt += 1) {
      const startMs = this.options.clock.nowMs();
      const outcome = await this.runAttempt(request, model, onEvent);
      const latencyMs = Math.max(0, this.options.clock.nowMs() - startMs);
      if (outcome.ok) {
        onEvent(attemptEvent({ model, attempt, outcome: 'ok', usage: outcome.result.usage, latencyMs }));
        return outcome.result;
      }
      const { error } = outcome;
      const retryInMs = error.kind === 'aborted' ? undefined : retryDelayMs(this.policy, attempt, error, this.options.random);
      if (outcome.emittedOutput && error.kind !== 'aborted') onEvent({ type: 'discard' });
      onEvent(
        attemptEvent({
          model,
          attempt,
          outcome: error.kind,
          usage: outcome.usage,
          latencyMs,
          error: error.message,
          ...(retryInMs === undefined ? {} : { retryInMs }),
        }),
      );
      if (retryInMs === undefined) throw withAttempts(error, attempt);
      await this.waitBeforeRetry(retryInMs, request.signal, attempt);
    }
  }

  /** Model ids the server lists, with their context windows when it says. */
  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    try {
      const page = await this.client.models.list({ signal, maxRetries: 0, timeout: this.timeoutMs });
      return page.data.slice(0, maxListedModels).map((entry) => toModelInfo(entry as unknown as WireModel));
    } catch (err) {
      throw classifyError(err, this.baseURL, { nowMs: this.options.clock.nowMs() });
    }
  }

  private async waitBeforeRetry(waitMs: number, signal: AbortSignal, attempt: number): Promise<void> {
    try {
      await this.sleep(waitMs, signal);
    } catch (err) {
      throw withAttempts(abortedError(err), attempt);
    }
    if (signal.aborted) throw withAttempts(abortedError(), attempt);
  }

  private async runAttempt(
    request: CompletionRequest,
    model: string,
    onEvent: (event: CompletionEvent) => void,
  ): Promise<AttemptOutcomeData> {
    const watchdog = new AttemptWatchdog(request.signal, this.streamIdleTimeoutMs);
    const assembly = new StreamAssembly((index) => `call_${index}_${randomHex(this.options.random, 4)}`);
    let streamStarted = false;
    try {
      const stream = await abortable(
        this.client.chat.completions.create(this.requestBody(request, model), {
          signal: watchdog.signal,
          maxRetries: 0,
          timeout: this.timeoutMs,
        }),
        watchdog.signal,
      );
      streamStarted = true;
      watchdog.arm();
      await drain(stream, watchdog, (chunk) => assembly.add(chunk).forEach(onEvent));
      this.throwIfStopped(request.signal, watchdog);
      if (assembly.finishReason === undefined) throw streamDroppedError(this.baseURL, 'no finish_reason was sent');
      return { ok: true, result: assembly.result(model) };
    } catch (err) {
      const error = this.attemptError(err, request.signal, watchdog, streamStarted);
      if (error.kind === 'stream_dropped' && assembly.finishReason !== undefined) {
        // The answer was complete; only the tail (usage, [DONE]) was lost.
        return { ok: true, result: assembly.result(model) };
      }
      return { ok: false, error, usage: assembly.usage, emittedOutput: assembly.emittedOutput };
    } finally {
      watchdog.dispose();
    }
  }

  private throwIfStopped(signal: AbortSignal, watchdog: AttemptWatchdog): void {
    if (signal.aborted) throw abortedError();
    if (watchdog.idleFired) throw this.idleError();
  }

  private idleError(): ProviderError {
    return streamDroppedError(this.baseURL, `no data for ${this.streamIdleTimeoutMs} ms`);
  }

  private attemptError(err: unknown, signal: AbortSignal, watchdog: AttemptWatchdog, midStream: boolean): ProviderError {
    if (signal.aborted) return err instanceof ProviderError && err.kind === 'aborted' ? err : abortedError(err);
    if (watchdog.idleFired) return this.idleError();
    return classifyError(err, this.baseURL, { nowMs: this.options.clock.nowMs(), midStream });
  }

  private requestBody(request: CompletionRequest, model: string): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
    return {
      model,
      messages: request.messages.map(toWireMessage),
      stream: true,
      stream_options: { include_usage: true },
      ...(request.tools.length > 0 ? { tools: request.tools.map(toWireTool) } : {}),
      ...(request.maxOutputTokens === undefined ? {} : { [this.maxTokensField]: request.maxOutputTokens }),
    };
  }
}

function defaultMaxTokensField(baseURL: string): 'max_tokens' | 'max_completion_tokens' {
  return /^https?:\/\/api\.openai\.com(\/|$)/i.test(baseURL) ? 'max_completion_tokens' : 'max_tokens';
}

function attemptEvent(report: AttemptReport): CompletionEvent {
  return { type: 'attempt', report };
}

function withAttempts(error: ProviderError, attempts: number): ProviderError {
  error.attempts = attempts;
  return error;
}

// ---- Cancellation and the idle limit. ----

/** One attempt's abort signal: the caller's signal, or silence in the stream beyond the limit. */
class AttemptWatchdog {
  private readonly controller = new AbortController();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort = (): void => this.controller.abort();
  idleFired = false;

  constructor(
    private readonly callerSignal: AbortSignal,
    private readonly idleMs: number,
  ) {
    if (callerSignal.aborted) this.controller.abort();
    else callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * (Re)starts the idle limit: call when the stream opens and on every chunk. Per chunk this only
   * notes the time; the one timer, when it fires, re-arms itself for what is left of the limit.
   */
  arm(): void {
    this.lastActivityMs = performance.now();
    if (this.idleTimer === undefined) this.idleTimer = setTimeout(this.onIdleTimer, this.idleMs);
  }

  private lastActivityMs = 0;
  private readonly onIdleTimer = (): void => {
    const idleForMs = performance.now() - this.lastActivityMs;
    if (idleForMs < this.idleMs) {
      this.idleTimer = setTimeout(this.onIdleTimer, this.idleMs - idleForMs);
      return;
    }
    this.idleFired = true;
    this.controller.abort();
  };

  /** Stops the timer and closes the connection if it is still open. */
  dispose(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.callerSignal.removeEventListener('abort', this.onCallerAbort);
    this.controller.abort();
  }
}

async function drain(
  stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>,
  watchdog: AttemptWatchdog,
  onChunk: (chunk: WireChunk) => void,
): Promise<void> {
  const iterator = stream[Symbol.asyncIterator]();
  // One abort listener for the whole stream (not one per chunk): it fails the read in flight.
  const { signal } = watchdog;
  let failRead: ((error: Error) => void) | null = null;
  const onAbort = (): void => failRead?.(abortSignalError());
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal.aborted) throw abortSignalError();
      const next = await new Promise<IteratorResult<OpenAI.Chat.ChatCompletionChunk>>((resolve, reject) => {
        failRead = reject;
        iterator.next().then(resolve, reject);
      });
      failRead = null;
      if (next.done) return;
      watchdog.arm();
      onChunk(next.value as unknown as WireChunk);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Settles as `promise` does, or rejects the moment `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => undefined);
  if (signal.aborted) return Promise.reject(abortSignalError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortSignalError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function abortSignalError(): Error {
  const error = new Error('aborted');
  error.name = 'AbortError';
  return error;
}
