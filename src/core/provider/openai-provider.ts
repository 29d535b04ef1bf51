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
import type {
  AttemptReport,
  ChatMessage,
  CompletionEvent,
  CompletionRequest,
  CompletionResult,
  FinishReason,
  Provider,
  TokenUsage,
  ToolCallRequest,
  ToolDefinition,
} from './provider';
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

export interface ModelInfo {
  readonly id: string;
  /** The model's context window, when the server says. */
  readonly contextWindowTokens?: number;
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
    if (model === '') throw new Error('OpenAIProvider.complete: no model named and no defaultModel');
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

export function toWireMessage(message: ChatMessage): OpenAI.Chat.ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      if (message.toolCalls === undefined || message.toolCalls.length === 0) {
        return { role: 'assistant', content: message.content };
      }
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

function toWireTool(tool: ToolDefinition): OpenAI.Chat.ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

export function toFinishReason(wire: string, hasToolCalls: boolean): FinishReason {
  switch (wire) {
    case 'stop':
    case 'eos':
    case 'end_turn':
      // Some servers say "stop" after tool calls; the calls are what the turn loop must act on.
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'tool_calls':
    case 'function_call':
    case 'tool_use':
      return 'tool_calls';
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

// ---- The wire, loosely: compatible servers add fields the SDK's types do not know. ----

interface WireToolCallDelta {
  readonly index?: number;
  readonly id?: string | null;
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
}

interface WireDelta {
  readonly content?: string | null;
  readonly reasoning_content?: string | null;
  readonly reasoning?: string | null;
  readonly tool_calls?: readonly WireToolCallDelta[] | null;
}

interface WireChoice {
  readonly index?: number;
  readonly delta?: WireDelta | null;
  readonly finish_reason?: string | null;
}

export interface WireUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number; readonly cache_write_tokens?: number } | null;
  readonly cache_read_input_tokens?: number;
  readonly cache_creation_input_tokens?: number;
  /** OpenRouter: what the call cost, in dollars. */
  readonly cost?: number;
}

interface WireChunk {
  readonly choices?: readonly WireChoice[] | null;
  readonly usage?: WireUsage | null;
}

interface WireModel {
  readonly id: string;
  readonly context_length?: unknown;
  readonly max_model_len?: unknown;
  readonly context_window?: unknown;
  readonly max_context_length?: unknown;
  readonly top_provider?: { readonly context_length?: unknown } | null;
  readonly meta?: { readonly n_ctx?: unknown; readonly n_ctx_train?: unknown } | null;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/**
 * Normalises usage so that `inputTokens` counts every prompt token, cached and cache-written ones
 * included (OpenAI's accounting). Anthropic-style usage without `prompt_tokens` counts them apart.
 */
export function parseUsage(wire: WireUsage | null | undefined): TokenUsage | null {
  if (wire === null || wire === undefined || typeof wire !== 'object') return null;
  const cachedInputTokens = count(wire.prompt_tokens_details?.cached_tokens) || count(wire.cache_read_input_tokens);
  const cacheWriteTokens = count(wire.cache_creation_input_tokens) || count(wire.prompt_tokens_details?.cache_write_tokens);
  const inputTokens =
    wire.prompt_tokens !== undefined ? count(wire.prompt_tokens) : count(wire.input_tokens) + cachedInputTokens + cacheWriteTokens;
  const outputTokens = count(wire.completion_tokens) || count(wire.output_tokens);
  const costUsd = wire.cost;
  return {
    inputTokens,
    outputTokens,
    cachedInputTokens,
    cacheWriteTokens,
    ...(typeof costUsd === 'number' && Number.isFinite(costUsd) && costUsd >= 0
      ? { serverCostUsdMicros: Math.round(costUsd * 1_000_000) }
      : {}),
  };
}

function toModelInfo(entry: WireModel): ModelInfo {
  const contextWindowTokens =
    count(entry.context_length) ||
    count(entry.max_model_len) ||
    count(entry.context_window) ||
    count(entry.max_context_length) ||
    count(entry.top_provider?.context_length) ||
    count(entry.meta?.n_ctx) ||
    count(entry.meta?.n_ctx_train);
  return contextWindowTokens > 0 ? { id: String(entry.id), contextWindowTokens } : { id: String(entry.id) };
}

// ---- Assembling one attempt's stream. ----

interface ToolSlot {
  id: string;
  name: string;
  arguments: string;
  readonly idFromServer: boolean;
}

/** Folds chunks into text, reasoning, tool calls, finish reason and usage; returns the events. */
export class StreamAssembly {
  text = '';
  reasoning = '';
  finishReason: string | undefined;
  usage: TokenUsage | null = null;
  emittedOutput = false;
  private readonly slots: ToolSlot[] = [];
  /** Wire index -> slot index (a server that reuses index 0 for several calls gets new slots). */
  private readonly slotByWireIndex = new Map<number, number>();

  constructor(private readonly inventCallId: (index: number) => string) {}

  add(chunk: WireChunk): CompletionEvent[] {
    const events: CompletionEvent[] = [];
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = parseUsage(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      this.addDelta(choice.delta ?? {}, events);
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.finishReason = choice.finish_reason;
    }
    if (events.length > 0) this.emittedOutput = true;
    return events;
  }

  result(model: string): CompletionResult {
    const toolCalls: ToolCallRequest[] = this.slots.map((slot) => ({ id: slot.id, name: slot.name, arguments: slot.arguments }));
    return {
      model,
      text: this.text,
      reasoning: this.reasoning,
      toolCalls,
      finishReason: toFinishReason(this.finishReason ?? 'other', toolCalls.length > 0),
      usage: this.usage,
    };
  }

  private addDelta(delta: WireDelta, events: CompletionEvent[]): void {
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string' && reasoning !== '') {
      this.reasoning += reasoning;
      events.push({ type: 'reasoning', delta: reasoning });
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.text += delta.content;
      events.push({ type: 'text', delta: delta.content });
    }
    (delta.tool_calls ?? []).forEach((fragment, position) => {
      const event = this.addToolFragment(fragment, position);
      if (event !== undefined) events.push(event);
    });
  }

  private addToolFragment(fragment: WireToolCallDelta, position: number): CompletionEvent | undefined {
    const wireIndex = typeof fragment.index === 'number' ? fragment.index : position;
    const serverId = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : undefined;
    const name = fragment.function?.name ?? undefined;
    const argumentsDelta = fragment.function?.arguments ?? '';
    const known = this.slotByWireIndex.get(wireIndex);
    const startsNewCall =
      known === undefined || (serverId !== undefined && this.slots[known].idFromServer && this.slots[known].id !== serverId);
    if (startsNewCall) return this.openSlot(wireIndex, serverId, name ?? '', argumentsDelta);
    const slot = this.slots[known];
    const newName = slot.name === '' && name ? name : undefined;
    if (newName !== undefined) slot.name = newName;
    slot.arguments += argumentsDelta;
    if (newName === undefined && argumentsDelta === '') return undefined;
    return { type: 'tool_call', index: known, argumentsDelta, ...(newName === undefined ? {} : { name: newName }) };
  }

  private openSlot(wireIndex: number, serverId: string | undefined, name: string, argumentsDelta: string): CompletionEvent {
    const index = this.slots.length;
    const id = serverId ?? this.inventCallId(index);
    this.slots.push({ id, name, arguments: argumentsDelta, idFromServer: serverId !== undefined });
    this.slotByWireIndex.set(wireIndex, index);
    return { type: 'tool_call', index, id, argumentsDelta, ...(name === '' ? {} : { name }) };
  }
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
