/**
 * The default provider: the `openai` package's Chat Completions streaming API against any
 * OpenAI-compatible base URL. tole retries (the SDK's own retries are off; attempt-loop.ts) so
 * that every attempt is reported, failed ones too.
 *
 * Events per attempt: text / reasoning / tool_call deltas as they arrive; when the attempt fails
 * after some of them, a `discard`; then exactly one `attempt` report, before any wait and the
 * next attempt.
 */
import OpenAI, { APIError } from 'openai';
import { randomHex } from '../../clock';
import { type AttemptOutcomeData, type CallSettings, callSettings, requestModel, runAttempts } from '../attempt-loop';
import { abortable, type AttemptWatchdog, stoppedAttemptError, watchdogError, watchdogFor } from '../attempt-watchdog';
import { discoverWindow, type DiscoveredWindow } from '../context-window';
import { abortedError, ProviderError, streamDroppedError } from '../errors';
import { httpFetch } from '../http-fetch';
import type { CompletionEvent, CompletionRequest, CompletionResult, ModelInfo, Provider } from '../provider';
import type { ProviderOptions } from '../provider-options';
import { isEventStream, watchingFetch } from '../sse-response';
import { readEventStream } from '../sse-reader';
import { classifyError } from './classify-openai-error';
import { generationFields, nameRefusedSetting } from './generation-wire';
import {
  assembleCompletionBody,
  StreamAssembly,
  toModelInfo,
  toWireMessage,
  toWireTool,
  type WireChunk,
  type WireModel,
} from './openai-wire';

export interface OpenAIProviderOptions extends ProviderOptions {
  /** OpenAI's own API wants `max_completion_tokens`; most compatible servers read `max_tokens`. */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** The SDK throws without a key; local servers ignore the one we send. */
const placeholderApiKey = 'tole-no-key';
const maxListedModels = 10_000;

export class OpenAIProvider implements Provider {
  readonly name: string;
  readonly baseURL: string;
  private readonly client: OpenAI;
  private readonly settings: CallSettings;
  private readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';

  constructor(private readonly options: OpenAIProviderOptions) {
    this.name = options.name ?? 'openai';
    this.baseURL = options.baseURL;
    this.settings = callSettings(options);
    this.maxTokensField = options.maxTokensField ?? defaultMaxTokensField(options.baseURL);
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey || placeholderApiKey,
      organization: null,
      project: null,
      webhookSecret: null,
      defaultHeaders: options.headers,
      maxRetries: 0,
      timeout: this.settings.timeoutMs,
      logLevel: 'off',
      // A redirect would carry the conversation (and, to the same host, the key) somewhere the
      // user never named: it comes back as a 3xx error instead.
      fetch: watchingFetch((input, init) => (options.fetch ?? httpFetch)(input, { ...init, redirect: 'manual' })),
    });
  }

  complete(request: CompletionRequest, onEvent: (event: CompletionEvent) => void): Promise<CompletionResult> {
    let model: string;
    try {
      model = requestModel(request, this.options);
    } catch (error) {
      return Promise.reject(error);
    }
    return runAttempts(
      this.settings,
      request,
      model,
      onEvent,
      (deadline) => this.runAttempt(request, model, onEvent, deadline),
      (error) => nameRefusedSetting(error, request.generation, this.maxTokensField),
    );
  }

  /** Model ids the server lists, with their context windows when it says. */
  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    try {
      const page = await this.client.models.list({ signal, maxRetries: 0, timeout: this.settings.timeoutMs });
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

  private async runAttempt(
    request: CompletionRequest,
    model: string,
    onEvent: (event: CompletionEvent) => void,
    deadline: number,
  ): Promise<AttemptOutcomeData> {
    const watchdog = watchdogFor(request.signal, this.settings, deadline);
    const assembly = new StreamAssembly((index) => `call_${index}_${randomHex(this.settings.random, 4)}`);
    let streamStarted = false;
    try {
      // The client makes the request (and turns a refusal into its APIError); tole reads the
      // event stream itself (see readEvents).
      const response = await abortable(
        this.client.chat.completions
          .create(this.requestBody(request, model), {
            signal: watchdog.signal,
            maxRetries: 0,
            timeout: this.settings.timeoutMs,
          })
          .asResponse(),
        watchdog.signal,
      );
      if (!isEventStream(response.headers.get('content-type')))
        return await this.wholeBody(response, assembly, model, onEvent, watchdog);
      streamStarted = true;
      watchdog.open();
      onEvent({
        type: 'stream-open',
        firstTokenLimitMs: this.settings.firstTokenTimeoutMs,
        idleLimitMs: this.settings.streamIdleTimeoutMs,
      });
      const sawDone = await readEvents(response, watchdog, (chunk) => {
        watchdog.handOn(assembly.add(chunk), onEvent);
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
    if (watchdog.fired !== null) throw watchdogError(watchdog.fired, this.settings);
  }

  private attemptError(
    err: unknown,
    signal: AbortSignal,
    watchdog: AttemptWatchdog,
    midStream: boolean,
  ): ProviderError {
    const stopped = stoppedAttemptError(err, signal, watchdog, this.settings);
    if (stopped) return stopped;
    return classifyError(err, this.baseURL, { nowMs: this.settings.clock.nowMs(), midStream });
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

/**
 * Reads a Chat Completions event stream (sse-reader.ts): every `data:` event is one chunk, and
 * `data: [DONE]` is the end mark (true when it came). What the client's own iterator did with an
 * event is kept: events after the mark are ignored, a payload that is not JSON fails the read,
 * and a payload with an `error` field is the server's APIError.
 */
async function readEvents(
  response: Response,
  watchdog: AttemptWatchdog,
  onChunk: (chunk: WireChunk) => void,
): Promise<boolean> {
  let sawDone = false;
  await readEventStream(response, watchdog, ({ data }) => {
    if (sawDone) return;
    if (data.startsWith('[DONE]')) {
      sawDone = true;
      return;
    }
    const chunk = JSON.parse(data) as WireChunk & { error?: unknown };
    if (chunk?.error) throw new APIError(undefined, chunk.error as object, undefined, response.headers);
    watchdog.activity();
    onChunk(chunk);
  });
  return sawDone;
}
