/**
 * The `anthropic-messages` kind: Anthropic's Messages API (`POST /v1/messages`, streamed),
 * with prompt caching and extended thinking (anthropic-request.ts) and the stream folded by
 * anthropic-stream.ts. The key goes in `x-api-key`, the API version in `anthropic-version`.
 *
 * Written on tole's own fetch (http-fetch.ts) and SSE reader rather than `@anthropic-ai/sdk`: the
 * request is one POST and the stream eight event types, which tole reads the same way it reads
 * Chat Completions (the watchdog, the node:http fast path, its retries and error kinds); the SDK
 * would add a second client, its own retries and stream layer to turn off, and a dependency.
 */
import { randomHex } from '../../clock';
import { type AttemptOutcomeData, type CallSettings, callSettings, requestModel, runAttempts } from '../attempt-loop';
import {
  abortable,
  type AttemptWatchdog,
  formatSeconds,
  stoppedAttemptError,
  watchdogError,
  watchdogFor,
} from '../attempt-watchdog';
import type { DiscoveredWindow } from '../context-window';
import { abortedError, ProviderError, streamDroppedError } from '../errors';
import { httpFetch } from '../http-fetch';
import type { CompletionEvent, CompletionRequest, CompletionResult, ModelInfo } from '../provider';
import type { ProviderOptions } from '../provider-options';
import type { LoadedProvider } from '../provider-kind';
import { isEventStream } from '../sse-response';
import { readEventStream } from '../sse-reader';
import { classifyAnthropicError, refusalError, streamErrorEvent } from './anthropic-errors';
import { messagesBody } from './anthropic-request';
import { MessagesAssembly, type MessagesEvent } from './anthropic-stream';
import { listAnthropicModels } from './anthropic-models';
import { claudeWindow } from './anthropic-windows';

/** The API version tole speaks (https://docs.anthropic.com/en/api/versioning). */
const ANTHROPIC_VERSION = '2023-06-01';

/** `https://api.anthropic.com` and `https://api.anthropic.com/v1` both mean the same endpoint. */
function messagesUrl(baseURL: string): string {
  const base = baseURL.replace(/\/+$/, '');
  return /\/v1$/.test(base) ? `${base}/messages` : `${base}/v1/messages`;
}

export class AnthropicProvider implements LoadedProvider {
  readonly name: string;
  readonly baseURL: string;
  private readonly settings: CallSettings;
  private readonly url: string;

  constructor(private readonly options: ProviderOptions) {
    this.name = options.name ?? 'anthropic';
    this.baseURL = options.baseURL;
    this.settings = callSettings(options);
    this.url = messagesUrl(options.baseURL);
  }

  complete(request: CompletionRequest, onEvent: (event: CompletionEvent) => void): Promise<CompletionResult> {
    let model: string;
    try {
      model = requestModel(request, this.options);
    } catch (error) {
      return Promise.reject(error);
    }
    return runAttempts(this.settings, request, model, onEvent, (deadline) =>
      this.runAttempt(request, model, onEvent, deadline),
    );
  }

  /** The model's window as Anthropic documents it (its API does not say); null for a model it does not name. */
  contextWindow(model: string): Promise<DiscoveredWindow | null> {
    return Promise.resolve(claudeWindow(model));
  }

  /** The models the server lists (`GET /v1/models`), with their documented windows. */
  listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const { 'content-type': _type, accept: _accept, ...headers } = this.headers();
    return listAnthropicModels(this.baseURL, headers, { fetch: this.options.fetch, signal });
  }

  private headers(): Record<string, string> {
    return {
      ...this.options.headers,
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'anthropic-version': ANTHROPIC_VERSION,
      ...(this.options.apiKey ? { 'x-api-key': this.options.apiKey } : {}),
    };
  }

  private async runAttempt(
    request: CompletionRequest,
    model: string,
    onEvent: (event: CompletionEvent) => void,
    deadline: number,
  ): Promise<AttemptOutcomeData> {
    const watchdog = watchdogFor(request.signal, this.settings, deadline);
    const assembly = new MessagesAssembly((index) => `toolu_tole_${index}_${randomHex(this.settings.random, 4)}`);
    let streamStarted = false;
    try {
      const body = JSON.stringify(messagesBody(request, model));
      const response = await this.send(body, watchdog);
      if (response.status !== 200)
        throw refusalError(response.status, await abortable(response.text(), watchdog.signal), response.headers);
      if (!isEventStream(response.headers.get('content-type'))) return await this.notAStream(response, watchdog);
      streamStarted = true;
      watchdog.open();
      onEvent({
        type: 'stream-open',
        firstTokenLimitMs: this.settings.firstTokenTimeoutMs,
        idleLimitMs: this.settings.streamIdleTimeoutMs,
      });
      await readEventStream(response, watchdog, ({ data }) => {
        const event = JSON.parse(data) as MessagesEvent;
        if (event?.type === 'error') throw streamErrorEvent(data, event, response.headers);
        watchdog.activity();
        watchdog.handOn(assembly.add(event), onEvent);
      });
      this.throwIfStopped(request.signal, watchdog);
      if (!assembly.sawStop) throw streamDroppedError(this.baseURL, 'no message_stop was sent');
      return { ok: true, result: assembly.result(model) };
    } catch (err) {
      const error = this.attemptError(err, request.signal, watchdog, streamStarted);
      if (error.kind === 'stream_dropped' && assembly.sawStop) return { ok: true, result: assembly.result(model) };
      return { ok: false, error, usage: assembly.usage, emittedOutput: assembly.emittedOutput };
    } finally {
      watchdog.dispose();
    }
  }

  /**
   * Sends the request; the answer's headers must come within `timeoutMs` (the stream that follows
   * is the watchdog's). The attempt's signal closes the connection at any point.
   */
  private async send(body: string, watchdog: AttemptWatchdog): Promise<Response> {
    const fetch = this.options.fetch ?? httpFetch;
    const headersDue = new AbortController();
    const timer = setTimeout(() => headersDue.abort(), this.settings.timeoutMs);
    try {
      // A redirect would carry the conversation (and the key) somewhere the user never named: a
      // 3xx comes back as a refusal instead.
      const init = {
        method: 'POST',
        headers: this.headers(),
        body,
        signal: watchdog.signal,
        redirect: 'manual' as const,
      };
      return await abortable(fetch(this.url, init), AbortSignal.any([watchdog.signal, headersDue.signal]));
    } catch (error) {
      if (!headersDue.signal.aborted || watchdog.signal.aborted) throw error;
      throw new ProviderError({
        kind: 'transient',
        message: `no answer from ${this.url} within ${formatSeconds(this.settings.timeoutMs)}`,
        hint: `the server at ${this.baseURL} did not answer; tole retries on its own, and if it persists, is the server healthy?`,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A 200 answer that is not an event stream (a proxy's page, a login form) is named as what it
   * is and not retried: asking again gets the same page.
   */
  private async notAStream(response: Response, watchdog: AttemptWatchdog): Promise<AttemptOutcomeData> {
    const type = response.headers.get('content-type') ?? '';
    const text = await abortable(response.text(), watchdog.signal);
    const what = type === '' ? 'a body with no content type' : type.split(';')[0]!.trim();
    const start = text.replace(/\s+/g, ' ').trim().slice(0, 120);
    const error = new ProviderError({
      kind: 'bad_request',
      status: response.status,
      message: `${this.url} answered a streaming request with ${what}, not an event stream${start === '' ? ' (empty)' : `: "${start}"`}`,
      hint: 'check the base URL: something other than the Anthropic Messages API (a proxy, a web page, a login) answers there',
    });
    return { ok: false, error, usage: null, emittedOutput: false };
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
    return classifyAnthropicError(err, this.baseURL, { nowMs: this.settings.clock.nowMs(), midStream });
  }
}
