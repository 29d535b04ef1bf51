/**
 * The `ollama` API kind: Ollama's own `POST /api/chat` (ollama-wire.ts), streamed as NDJSON, over
 * tole's node:http fetch with no client library: the `ollama` npm package brings its own fetch
 * and stream handling, which would bypass tole's watchdog, its refusal of redirects and its
 * socket-level reading, for a protocol that is one POST and one line per chunk.
 *
 * The window the model runs with goes out as `options.num_ctx`: the one tole knows (the config's,
 * or the one it learned) when the request carries it, else what `POST /api/show` says, asked once
 * per model. Retries, limits and attempt reports are the shared ones (attempt-loop.ts).
 */
import { randomHex } from '../../clock';
import { type AttemptOutcomeData, type CallSettings, callSettings, requestModel, runAttempts } from '../attempt-loop';
import { type AttemptWatchdog, stoppedAttemptError, watchdogError, watchdogFor } from '../attempt-watchdog';
import { classifyFailure } from '../classify-error';
import { type DiscoveredWindow, discoverOllamaWindow } from '../context-window';
import { abortedError, ProviderError, streamDroppedError } from '../errors';
import { postJson, Refusal } from '../post-json';
import type { CompletionEvent, CompletionRequest, CompletionResult, ModelInfo, Provider } from '../provider';
import { listOllamaModels } from './ollama-models';
import type { ProviderOptions } from '../provider-options';
import { readNdjson } from './ndjson-reader';
import { classifyOllamaFailure } from './ollama-errors';
import { OllamaAssembly, type OllamaLine, OllamaStreamError } from './ollama-stream';
import { ollamaChatBody } from './ollama-wire';

/** A server error inside a stream is read as a 500 would be: retried unless its words say otherwise. */
const STREAM_ERROR_STATUS = 500;

export class OllamaProvider implements Provider {
  readonly name: string;
  /** The server's root: Ollama's API lives under /api, so a base URL given with /v1 (its OpenAI-compatible path) loses it. */
  readonly baseURL: string;
  private readonly settings: CallSettings;
  private readonly windows = new Map<string, Promise<DiscoveredWindow | null>>();

  constructor(private readonly options: ProviderOptions) {
    this.name = options.name ?? 'ollama';
    this.baseURL = ollamaRoot(options.baseURL);
    this.settings = callSettings({ ...options, baseURL: this.baseURL });
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

  /** What `POST /api/show` says of the model's window (its num_ctx parameter, else its trained length); asked once per model. */
  contextWindow(model: string, signal?: AbortSignal): Promise<DiscoveredWindow | null> {
    let asked = this.windows.get(model);
    if (asked === undefined) {
      asked = discoverOllamaWindow(model, {
        baseURL: this.baseURL,
        ...this.probeAuth(),
        ...(signal ? { signal } : {}),
      });
      this.windows.set(model, asked);
      // A question that found nothing (the server was down, the call was stopped) is asked again next time.
      void asked.then((found) => {
        if (found === null && this.windows.get(model) === asked) this.windows.delete(model);
      });
    }
    return asked;
  }

  private async runAttempt(
    request: CompletionRequest,
    model: string,
    onEvent: (event: CompletionEvent) => void,
    deadline: number,
  ): Promise<AttemptOutcomeData> {
    const watchdog = watchdogFor(request.signal, this.settings, deadline);
    const assembly = new OllamaAssembly((index) => `call_${index}_${randomHex(this.settings.random, 4)}`);
    let streamStarted = false;
    try {
      const numCtx = request.contextWindowTokens ?? (await this.contextWindow(model, watchdog.signal))?.tokens;
      const response = await postJson({
        url: `${this.baseURL}/api/chat`,
        body: ollamaChatBody(request, model, numCtx),
        headers: this.headers(),
        signal: watchdog.signal,
        timeoutMs: this.settings.timeoutMs,
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      });
      throwIfNotOllama(response, this.baseURL);
      streamStarted = true;
      watchdog.open();
      onEvent({
        type: 'stream-open',
        firstTokenLimitMs: this.settings.firstTokenTimeoutMs,
        idleLimitMs: this.settings.streamIdleTimeoutMs,
      });
      await readNdjson(response.body, watchdog.signal, (line) => {
        watchdog.activity();
        watchdog.handOn(assembly.add(line as OllamaLine), onEvent);
      });
      if (request.signal.aborted) throw abortedError();
      if (watchdog.fired !== null) throw watchdogError(watchdog.fired, this.settings);
      if (!assembly.done) throw streamDroppedError(this.baseURL, 'the stream ended without its done line');
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
    const failure = { baseURL: this.baseURL, model, nowMs };
    if (err instanceof Refusal)
      return classifyOllamaFailure({ ...failure, status: err.status, body: err.body, headers: err.headers });
    if (err instanceof OllamaStreamError)
      return classifyOllamaFailure({
        ...failure,
        status: STREAM_ERROR_STATUS,
        body: JSON.stringify({ error: err.serverMessage }),
      });
    if (err instanceof SyntaxError)
      return streamDroppedError(this.baseURL, `a line of the answer is not JSON (${err.message})`, err);
    return classifyFailure(err, this.baseURL, { httpFailure: () => undefined }, { nowMs, midStream });
  }

  /** The models pulled into the server (`GET /api/tags`). */
  listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const { accept: _accept, ...headers } = this.headers();
    return listOllamaModels(this.baseURL, headers, { fetch: this.options.fetch, signal });
  }

  private headers(): Record<string, string> {
    return {
      accept: 'application/x-ndjson',
      ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      ...this.options.headers,
    };
  }

  private probeAuth(): { apiKey?: string; headers?: Readonly<Record<string, string>> } {
    return {
      ...(this.options.apiKey ? { apiKey: this.options.apiKey } : {}),
      ...(this.options.headers ? { headers: this.options.headers } : {}),
    };
  }
}

/**
 * A 200 answer that is neither NDJSON nor JSON (a proxy's or a login page) is not Ollama: named as
 * what it is, and not retried, since asking again gets the same page.
 */
function throwIfNotOllama(response: Response, baseURL: string): void {
  const type = response.headers.get('content-type') ?? '';
  if (type === '' || /^\s*application\/(x-ndjson|json)\b/i.test(type)) return;
  void response.body?.cancel().catch(() => undefined);
  throw new ProviderError({
    kind: 'bad_request',
    status: response.status,
    message: `${baseURL}/api/chat answered with ${type.split(';')[0]!.trim()}, not Ollama's NDJSON stream`,
    hint: `check the base URL: something other than Ollama answers at ${baseURL} (for an OpenAI-compatible server, use "api": "openai-chat")`,
  });
}

/** `http://host:11434/v1/` → `http://host:11434`: the native API is at the root. */
function ollamaRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
}
