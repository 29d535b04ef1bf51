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
import { Readable } from 'node:stream';
import { createParser } from 'eventsource-parser';
import OpenAI, { APIError } from 'openai';
import { ABORTED, abortError, raceAbort } from '../abort';
import type { Clock, Random } from '../clock';
import { randomHex } from '../clock';
import { classifyError } from './classify-error';
import { abortedError, ProviderError, streamDroppedError } from './errors';
import type {
  AttemptReport,
  CompletionEvent,
  CompletionRequest,
  CompletionResult,
  Provider,
  TokenUsage,
} from './provider';
import {
  assembleCompletionBody,
  StreamAssembly,
  toModelInfo,
  toWireMessage,
  toWireTool,
  type ModelInfo,
  type WireChunk,
  type WireModel,
} from './openai-wire';
import { isEventStream, watchingFetch } from './sse-response';
import { eventStreamBody, httpFetch } from './http-fetch';
import { discoverWindow, type DiscoveredWindow } from './context-window';
import { generationFields, nameRefusedSetting } from './generation-wire';
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
  /** Limit on waiting for the first token once the stream is open (a long prompt takes a while). */
  readonly firstTokenTimeoutMs?: number;
  /** Limit on one model call as a whole: every attempt and every wait between them. */
  readonly callTimeoutMs?: number;
  /** The fetch beneath the client (tests); node:http (http-fetch.ts) unless given. tole watches its answers' bodies either way. */
  readonly fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** OpenAI's own API wants `max_completion_tokens`; most compatible servers read `max_tokens`. */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** The SDK throws without a key; local servers ignore the one we send. */
const placeholderApiKey = 'tole-no-key';
const defaultTimeoutMs = 600_000;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;
export const DEFAULT_FIRST_TOKEN_TIMEOUT_MS = 300_000;
export const DEFAULT_CALL_TIMEOUT_MS = 900_000;
const maxListedModels = 10_000;

type AttemptOutcomeData =
  | { readonly ok: true; readonly result: CompletionResult }
  | {
      readonly ok: false;
      readonly error: ProviderError;
      readonly usage: TokenUsage | null;
      readonly emittedOutput: boolean;
    };

export class OpenAIProvider implements Provider {
  readonly name: string;
  readonly baseURL: string;
  private readonly client: OpenAI;
  private readonly policy: RetryPolicy;
  private readonly sleep: Sleep;
  private readonly timeoutMs: number;
  private readonly streamIdleTimeoutMs: number;
  private readonly firstTokenTimeoutMs: number;
  private readonly callTimeoutMs: number;
  private readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';

  constructor(private readonly options: OpenAIProviderOptions) {
    this.name = options.name ?? 'openai';
    this.baseURL = options.baseURL;
    this.policy = retryPolicy(options.retry);
    this.sleep = options.sleep ?? timerSleep;
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
    this.firstTokenTimeoutMs = Math.max(
      options.firstTokenTimeoutMs ?? DEFAULT_FIRST_TOKEN_TIMEOUT_MS,
      this.streamIdleTimeoutMs,
    );
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
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
      // A redirect would carry the conversation (and, to the same host, the key) somewhere the
      // user never named: it comes back as a 3xx error instead.
      fetch: watchingFetch((input, init) => (options.fetch ?? httpFetch)(input, { ...init, redirect: 'manual' })),
    });
  }

  async complete(request: CompletionRequest, onEvent: (event: CompletionEvent) => void): Promise<CompletionResult> {
    const model = request.model || this.options.defaultModel || '';
    if (model === '') {
      // A failure of the call, like any other: the turn settles it as an error entry.
      throw new ProviderError({
        kind: 'bad_request',
        message: `no model named for ${this.baseURL}`,
        hint: 'name one with --model NAME or the config field "model"',
      });
    }
    const deadline = performance.now() + this.callTimeoutMs;
    for (let attempt = 1; ; attempt += 1) {
      const startMs = this.options.clock.nowMs();
      const outcome = await this.runAttempt(request, model, onEvent, deadline);
      const latencyMs = Math.max(0, this.options.clock.nowMs() - startMs);
      if (outcome.ok) {
        onEvent(attemptEvent({ model, attempt, outcome: 'ok', usage: outcome.result.usage, latencyMs }));
        return outcome.result;
      }
      const { error } = outcome;
      const delayMs =
        error.kind === 'aborted' ? undefined : retryDelayMs(this.policy, attempt, error, this.options.random);
      // No retry that could not start before the call's time is up.
      const retryInMs = delayMs !== undefined && performance.now() + delayMs < deadline ? delayMs : undefined;
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
      if (retryInMs === undefined)
        throw withAttempts(
          nameRefusedSetting(
            delayMs === undefined ? error : this.outOfTimeError(error),
            request.generation,
            this.maxTokensField,
          ),
          attempt,
        );
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

  /** The model's context window as the server says it (model list, llama.cpp, Ollama, LM Studio APIs), or null. */
  contextWindow(model: string, signal?: AbortSignal): Promise<DiscoveredWindow | null> {
    const { apiKey, headers } = this.options;
    return discoverWindow(model, {
      baseURL: this.baseURL,
      ...(apiKey ? { apiKey } : {}),
      ...(headers ? { headers } : {}),
      ...(signal ? { signal } : {}),
    });
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
    deadline: number,
  ): Promise<AttemptOutcomeData> {
    const watchdog = new AttemptWatchdog(request.signal, {
      firstTokenMs: this.firstTokenTimeoutMs,
      idleMs: this.streamIdleTimeoutMs,
      deadline,
    });
    const assembly = new StreamAssembly((index) => `call_${index}_${randomHex(this.options.random, 4)}`);
    let streamStarted = false;
    try {
      // The client makes the request (and turns a refusal into its APIError); tole reads the
      // event stream itself (see readEvents).
      const response = await abortable(
        this.client.chat.completions
          .create(this.requestBody(request, model), { signal: watchdog.signal, maxRetries: 0, timeout: this.timeoutMs })
          .asResponse(),
        watchdog.signal,
      );
      if (!isEventStream(response.headers.get('content-type')))
        return await this.wholeBody(response, assembly, model, onEvent, watchdog);
      streamStarted = true;
      watchdog.open();
      onEvent({
        type: 'stream-open',
        firstTokenLimitMs: this.firstTokenTimeoutMs,
        idleLimitMs: this.streamIdleTimeoutMs,
      });
      const sawDone = await readEvents(response, watchdog, (chunk) => {
        const events = assembly.add(chunk);
        if (events.length > 0) watchdog.output();
        for (const event of events) onEvent(event);
      });
      this.throwIfStopped(request.signal, watchdog);
      // A server that never sends finish_reason still ends its stream with [DONE]; a cut one does not.
      if (assembly.finishReason === undefined && !(sawDone && assembly.hasAnswer)) {
        throw streamDroppedError(
          this.baseURL,
          sawDone ? 'the stream ended with no answer in it' : 'no finish_reason was sent',
        );
      }
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

  /**
   * A 200 answer to a streaming request that is not an event stream: a whole JSON completion is
   * the answer (some servers ignore `stream: true`); anything else (a proxy's HTML page, a login
   * form) is named as what it is and not retried, since asking again gets the same page.
   */
  private async wholeBody(
    response: Response,
    assembly: StreamAssembly,
    model: string,
    onEvent: (event: CompletionEvent) => void,
    watchdog: AttemptWatchdog,
  ): Promise<AttemptOutcomeData> {
    const type = response.headers.get('content-type') ?? '';
    const text = await abortable(response.text(), watchdog.signal);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const events = body === undefined ? undefined : assembleCompletionBody(body, assembly);
    if (events === undefined || !(assembly.hasAnswer || assembly.finishReason !== undefined)) {
      const what = type === '' ? 'a body with no content type' : type.split(';')[0]!.trim();
      const start = text.replace(/\s+/g, ' ').trim().slice(0, 120);
      const error = new ProviderError({
        kind: 'bad_request',
        status: response.status,
        message: `${this.baseURL} answered a streaming request with ${what}, not an event stream or a chat completion${start === '' ? ' (empty)' : `: "${start}"`}`,
        hint: 'check the base URL: something other than an OpenAI-compatible API (a proxy, a web page, a login) answers there',
      });
      return { ok: false, error, usage: null, emittedOutput: false };
    }
    events.forEach(onEvent);
    return { ok: true, result: assembly.result(model) };
  }

  private throwIfStopped(signal: AbortSignal, watchdog: AttemptWatchdog): void {
    if (signal.aborted) throw abortedError();
    if (watchdog.fired !== null) throw this.watchdogError(watchdog);
  }

  private watchdogError(watchdog: AttemptWatchdog): ProviderError {
    switch (watchdog.fired) {
      case 'first-token':
        return streamDroppedError(
          this.baseURL,
          `no answer for ${formatSeconds(this.firstTokenTimeoutMs)} after the stream opened (limits.firstTokenTimeoutMs)`,
        );
      case 'deadline':
        return this.outOfTimeError(streamDroppedError(this.baseURL, 'the model call ran out of time'));
      default:
        return streamDroppedError(
          this.baseURL,
          `no data for ${formatSeconds(this.streamIdleTimeoutMs)} (limits.streamIdleTimeoutMs)`,
        );
    }
  }

  /** The call's time (all attempts and waits) is used up: the last failure, and what bounds it. */
  private outOfTimeError(last: ProviderError): ProviderError {
    return new ProviderError({
      kind: last.kind,
      ...(last.status === undefined ? {} : { status: last.status }),
      message: `${last.message}; gave up: the model call may take ${formatSeconds(this.callTimeoutMs)} in all (limits.modelCallTimeoutMs)`,
      hint: `${last.hint}; raise limits.modelCallTimeoutMs to wait longer`,
      cause: last,
    });
  }

  private attemptError(
    err: unknown,
    signal: AbortSignal,
    watchdog: AttemptWatchdog,
    midStream: boolean,
  ): ProviderError {
    if (signal.aborted) return err instanceof ProviderError && err.kind === 'aborted' ? err : abortedError(err);
    if (watchdog.fired !== null) return this.watchdogError(watchdog);
    return classifyError(err, this.baseURL, { nowMs: this.options.clock.nowMs(), midStream });
  }

  private requestBody(request: CompletionRequest, model: string): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
    return {
      model,
      messages: request.messages.map(toWireMessage),
      stream: true,
      stream_options: { include_usage: true },
      ...(request.tools.length > 0 ? { tools: request.tools.map(toWireTool) } : {}),
      ...generationFields(request.generation, this.maxTokensField, request.maxOutputTokens),
    } as OpenAI.Chat.ChatCompletionCreateParamsStreaming;
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

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

interface WatchdogLimits {
  /** Silence allowed from the stream's opening to its first output. */
  readonly firstTokenMs: number;
  /** Silence allowed once output has started. */
  readonly idleMs: number;
  /** `performance.now()` by which the whole model call must be over. */
  readonly deadline: number;
}

/**
 * One attempt's abort signal: the caller's signal, silence in the stream beyond the limit that
 * applies (first token, then idle), or the end of the call's time.
 */
class AttemptWatchdog {
  private readonly controller = new AbortController();
  private silenceTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly deadlineTimer: ReturnType<typeof setTimeout>;
  private readonly onCallerAbort = (): void => this.controller.abort();
  private lastActivityMs = 0;
  private limitMs: number;
  private outputStarted = false;
  fired: 'first-token' | 'idle' | 'deadline' | null = null;

  constructor(
    private readonly callerSignal: AbortSignal,
    private readonly limits: WatchdogLimits,
  ) {
    this.limitMs = limits.firstTokenMs;
    if (callerSignal.aborted) this.controller.abort();
    else callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
    this.deadlineTimer = setTimeout(() => this.fire('deadline'), Math.max(0, limits.deadline - performance.now()));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The stream opened: silence counts from now, up to the first-token limit. */
  open(): void {
    this.activity();
  }

  /** Output arrived: from now on the (shorter) idle limit applies. */
  output(): void {
    if (this.outputStarted) return;
    this.outputStarted = true;
    this.limitMs = this.limits.idleMs;
    // The timer was set for the first-token limit: restart it for the idle limit.
    if (this.silenceTimer !== undefined) clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(this.onSilenceTimer, this.limitMs);
  }

  /**
   * A chunk arrived. Per chunk this only notes the time; the one timer, when it fires, re-arms
   * itself for what is left of the limit.
   */
  activity(): void {
    this.lastActivityMs = performance.now();
    if (this.silenceTimer === undefined) this.silenceTimer = setTimeout(this.onSilenceTimer, this.limitMs);
  }

  private readonly onSilenceTimer = (): void => {
    const silentForMs = performance.now() - this.lastActivityMs;
    if (silentForMs < this.limitMs) {
      this.silenceTimer = setTimeout(this.onSilenceTimer, this.limitMs - silentForMs);
      return;
    }
    this.fire(this.outputStarted ? 'idle' : 'first-token');
  };

  private fire(why: 'first-token' | 'idle' | 'deadline'): void {
    if (this.fired !== null || this.controller.signal.aborted) return;
    this.fired = why;
    this.controller.abort();
  }

  /** Stops the timers and closes the connection if it is still open. */
  dispose(): void {
    if (this.silenceTimer !== undefined) clearTimeout(this.silenceTimer);
    clearTimeout(this.deadlineTimer);
    this.callerSignal.removeEventListener('abort', this.onCallerAbort);
    this.controller.abort();
  }
}

/**
 * Reads a Chat Completions event stream (the SSE of the WHATWG HTML standard, parsed by
 * `eventsource-parser`): every `data:` event is one chunk, handed to `onChunk` as it is parsed,
 * straight from the network read that brought it ('data' events of the socket's stream, decoded
 * as UTF-8 with a character cut between reads kept for the next), and `data: [DONE]` is the end
 * mark (true when it came). What the client's own iterator did with an event is kept: events
 * after the mark are ignored, a payload that is not JSON fails the read, and a payload with an
 * `error` field is the server's APIError. An abort (the caller's, or the watchdog's) fails the
 * read at once and closes the connection; a connection closed before the end is
 * `TypeError('terminated')`, as Node's fetch says it.
 */
function readEvents(
  response: Response,
  watchdog: AttemptWatchdog,
  onChunk: (chunk: WireChunk) => void,
): Promise<boolean> {
  const body = eventStreamBody(response) ?? (response.body === null ? null : Readable.fromWeb(response.body as never));
  if (body === null) return Promise.reject(new Error('the event stream has no body'));
  const { signal } = watchdog;
  return new Promise<boolean>((resolve, reject) => {
    let sawDone = false;
    let settled = false;
    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) return resolve(sawDone);
      body.destroy();
      reject(error);
    };
    const onAbort = (): void => finish(abortError('aborted'));
    const parser = createParser({
      onEvent: ({ data }) => {
        if (sawDone) return;
        if (data.startsWith('[DONE]')) {
          sawDone = true;
          return;
        }
        const chunk = JSON.parse(data) as WireChunk & { error?: unknown };
        if (chunk?.error) throw new APIError(undefined, chunk.error as object, undefined, response.headers);
        watchdog.activity();
        onChunk(chunk);
      },
    });
    if (signal.aborted) return finish(abortError('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    body.setEncoding('utf8');
    // A byte-order mark may open an event stream; the string decoder keeps it (a TextDecoder
    // would not) and the parser would read `\ufeffdata` as an unknown field, losing the first event.
    let first = true;
    body.on('data', (text: string) => {
      if (settled) return;
      if (first) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      try {
        parser.feed(text);
      } catch (error) {
        finish(error);
      }
    });
    body.on('end', () => finish());
    body.on('error', (error) => finish(terminated(error)));
    body.on('close', () => finish(terminated(new Error('the connection closed before the stream ended'))));
  });
}

function terminated(cause: unknown): Error {
  return (cause as { name?: unknown } | null)?.name === 'AbortError'
    ? (cause as Error)
    : new TypeError('terminated', { cause });
}

/** Settles as `promise` does, or rejects the moment `signal` aborts. */
async function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => undefined);
  const settled = await raceAbort(promise, signal);
  if (settled === ABORTED) throw abortError('aborted');
  return settled;
}
