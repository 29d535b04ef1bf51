/**
 * The `gemini` API kind: the Gemini API's `models/{model}:streamGenerateContent?alt=sse`
 * (gemini-wire.ts), with the key in `x-goog-api-key`, over tole's node:http fetch and the
 * `eventsource-parser` reader tole already has (sse-reader.ts). Not `@google/genai`: it is a large
 * package (with Google's auth library) whose own fetch would bypass tole's watchdog and refusal of
 * redirects, for one POST whose events are whole JSON responses.
 *
 * The model's window is what `GET models/{model}` says (`inputTokenLimit`). Retries, limits and
 * attempt reports are the shared ones (attempt-loop.ts).
 */
import { randomHex } from '../../clock';
import { type AttemptOutcomeData, type CallSettings, callSettings, requestModel, runAttempts } from '../attempt-loop';
import { abortable, type AttemptWatchdog, stoppedAttemptError, watchdogError, watchdogFor } from '../attempt-watchdog';
import { classifyFailure } from '../classify-error';
import type { DiscoveredWindow } from '../context-window';
import { abortedError, ProviderError, streamDroppedError } from '../errors';
import { httpFetch } from '../http-fetch';
import { postJson, Refusal } from '../post-json';
import type { CompletionEvent, CompletionRequest, CompletionResult, ModelInfo, Provider } from '../provider';
import type { ProviderOptions } from '../provider-options';
import { isEventStream } from '../sse-response';
import { readEventStream } from '../sse-reader';
import { classifyGeminiFailure, geminiErrorOf } from './gemini-errors';
import { GeminiAssembly, type GeminiChunk, GeminiStreamError } from './gemini-stream';
import { geminiBody, geminiStreamUrl } from './gemini-wire';

const PROBE_TIMEOUT_MS = 10_000;
const MAX_MODEL_PAGES = 20;

export class GeminiProvider implements Provider {
  readonly name: string;
  readonly baseURL: string;
  private readonly settings: CallSettings;

  constructor(private readonly options: ProviderOptions) {
    this.name = options.name ?? 'gemini';
    this.baseURL = options.baseURL.replace(/\/+$/, '');
    this.settings = callSettings(options);
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

  /** `inputTokenLimit` of `GET models/{model}`; null when the server does not say. Never throws. */
  async contextWindow(model: string, signal?: AbortSignal): Promise<DiscoveredWindow | null> {
    const name = model.startsWith('models/') ? model.slice('models/'.length) : model;
    const entry = await this.getJson(`/models/${encodeURIComponent(name)}`, signal).catch(() => null);
    const tokens = (entry as { inputTokenLimit?: unknown } | null)?.inputTokenLimit;
    return typeof tokens === 'number' && tokens > 0
      ? { tokens, source: 'GET models/{model} (Gemini inputTokenLimit)' }
      : null;
  }

  /** The models that can generate content, with their input limits (`GET models`, page by page). */
  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const models: ModelInfo[] = [];
    let pageToken = '';
    for (let page = 0; page < MAX_MODEL_PAGES; page += 1) {
      const query = `?pageSize=1000${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
      const listed = (await this.getJson(`/models${query}`, signal)) as {
        models?: { name?: unknown; inputTokenLimit?: unknown; supportedGenerationMethods?: unknown }[];
        nextPageToken?: unknown;
      };
      for (const entry of listed.models ?? []) {
        if (typeof entry.name !== 'string') continue;
        const methods = Array.isArray(entry.supportedGenerationMethods) ? entry.supportedGenerationMethods : [];
        if (methods.length > 0 && !methods.includes('generateContent')) continue;
        const id = entry.name.replace(/^models\//, '');
        const limit = entry.inputTokenLimit;
        models.push(typeof limit === 'number' && limit > 0 ? { id, contextWindowTokens: limit } : { id });
      }
      if (typeof listed.nextPageToken !== 'string' || listed.nextPageToken === '') break;
      pageToken = listed.nextPageToken;
    }
    return models;
  }

  private async getJson(path: string, signal: AbortSignal | undefined): Promise<unknown> {
    const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const response = await (this.options.fetch ?? httpFetch)(`${this.baseURL}${path}`, {
      method: 'GET',
      headers: { accept: 'application/json', ...this.keyHeaders() },
      redirect: 'manual',
      signal: combined,
    });
    const text = await abortable(response.text(), combined);
    if (!response.ok) {
      throw classifyGeminiFailure({
        status: response.status,
        error: geminiErrorOf(text),
        headers: response.headers,
        baseURL: this.baseURL,
        model: path,
      });
    }
    return JSON.parse(text);
  }

  private async runAttempt(
    request: CompletionRequest,
    model: string,
    onEvent: (event: CompletionEvent) => void,
    deadline: number,
  ): Promise<AttemptOutcomeData> {
    const watchdog = watchdogFor(request.signal, this.settings, deadline);
    const assembly = new GeminiAssembly((index) => `${index}_${randomHex(this.settings.random, 4)}`);
    let streamStarted = false;
    try {
      const response = await postJson({
        url: geminiStreamUrl(this.baseURL, model),
        body: geminiBody(request, model),
        headers: { accept: 'text/event-stream', ...this.keyHeaders() },
        signal: watchdog.signal,
        timeoutMs: this.settings.timeoutMs,
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      });
      if (!isEventStream(response.headers.get('content-type'))) {
        await response.body?.cancel().catch(() => undefined);
        throw new ProviderError({
          kind: 'bad_request',
          status: response.status,
          message: `${this.baseURL} answered a streaming request with ${response.headers.get('content-type') ?? 'no content type'}, not an event stream`,
          hint: 'check the base URL: it should be the Gemini API (https://generativelanguage.googleapis.com/v1beta)',
        });
      }
      streamStarted = true;
      watchdog.open();
      onEvent({
        type: 'stream-open',
        firstTokenLimitMs: this.settings.firstTokenTimeoutMs,
        idleLimitMs: this.settings.streamIdleTimeoutMs,
      });
      await readEventStream(response, watchdog, ({ data }) => {
        watchdog.activity();
        watchdog.handOn(assembly.add(JSON.parse(data) as GeminiChunk), onEvent);
      });
      if (request.signal.aborted) throw abortedError();
      if (watchdog.fired !== null) throw watchdogError(watchdog.fired, this.settings);
      // No end mark: a stream that ended without a finish reason (or a refusal of the prompt) was cut.
      if (assembly.finishReason === undefined && assembly.blockReason === undefined)
        throw streamDroppedError(this.baseURL, 'the stream ended without a finish reason');
      return { ok: true, result: assembly.result(model) };
    } catch (err) {
      const error = this.attemptError(err, request.signal, watchdog, streamStarted, model);
      return { ok: false, error, usage: assembly.usage, emittedOutput: assembly.emittedOutput };
    } finally {
      watchdog.dispose();
    }
  }

  private attemptError(
    err: unknown,
    signal: AbortSignal,
    watchdog: AttemptWatchdog,
    midStream: boolean,
    model: string,
  ): ProviderError {
    const stopped = stoppedAttemptError(err, signal, watchdog, this.settings);
    if (stopped) return stopped;
    const nowMs = this.settings.clock.nowMs();
    const failure = { baseURL: this.baseURL, model, nowMs, apiKeyEnv: 'GEMINI_API_KEY' };
    if (err instanceof Refusal)
      return classifyGeminiFailure({
        ...failure,
        status: err.status,
        error: geminiErrorOf(err.body),
        headers: err.headers,
      });
    // An error event inside the stream: read as the status its code names (a 500 when it names none).
    if (err instanceof GeminiStreamError)
      return classifyGeminiFailure({ ...failure, status: err.code ?? 500, error: err.body });
    if (err instanceof SyntaxError)
      return streamDroppedError(this.baseURL, `an event of the answer is not JSON (${err.message})`, err);
    return classifyFailure(err, this.baseURL, { httpFailure: () => undefined }, { nowMs, midStream });
  }

  private keyHeaders(): Record<string, string> {
    return { ...(this.options.apiKey ? { 'x-goog-api-key': this.options.apiKey } : {}), ...this.options.headers };
  }
}
