/**
 * Learning a model's context window from the server, when the config does not give it. The
 * OpenAI-compatible model list says it on vLLM (`max_model_len`) and OpenRouter
 * (`context_length`); local servers say it in their own APIs: llama.cpp `GET /props`
 * (`default_generation_settings.n_ctx`), Ollama `POST /api/show` (`num_ctx` in the model's
 * parameters, else `<arch>.context_length` in its `model_info`), LM Studio
 * `GET /api/v0/models/{id}` (`loaded_context_length`, else `max_context_length`). Asked in that
 * order; a server that does not answer one is asked the next. Never throws. Asked over node:http
 * like the completions (http-fetch.ts), so that Node's fetch is never started in a session (its
 * first use compiles its HTTP parser's WebAssembly and its stream code); a redirect is not followed,
 * as a completion's is not: the key is not carried to a server the user did not name.
 */
import { httpFetch } from './http-fetch';

export interface DiscoveredWindow {
  readonly tokens: number;
  /** Where it came from, for `/context`: `GET /v1/models`, `GET /props`, ... */
  readonly source: string;
}

interface WindowProbeOptions {
  /** The OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1. */
  readonly baseURL: string;
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Limit on each request. */
  readonly timeoutMs?: number;
}

const DEFAULT_PROBE_TIMEOUT_MS = 5_000;
/** Model lists and model descriptions are small; a larger answer is not one of them. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export async function discoverWindow(model: string, options: WindowProbeOptions): Promise<DiscoveredWindow | null> {
  const base = options.baseURL.replace(/\/+$/, '');
  const root = base.replace(/\/v1$/, '');
  const ask = (method: 'GET' | 'POST', url: string, body?: unknown): Promise<unknown> =>
    requestJson(method, url, body, options);
  const listed = await ask('GET', `${base}/models`);
  const entry = modelEntry(listed, model);
  const fromList =
    entry === null
      ? 0
      : firstCount(
          entry.context_length,
          entry.max_model_len,
          entry.context_window,
          entry.max_context_length,
          entry.loaded_context_length,
          (entry.top_provider as Record<string, unknown> | undefined)?.context_length,
        );
  if (fromList > 0) return { tokens: fromList, source: `GET ${pathOf(base)}/models` };
  const props = record(await ask('GET', `${root}/props`));
  const nCtx = props === null ? 0 : firstCount(record(props.default_generation_settings)?.n_ctx, props.n_ctx);
  if (nCtx > 0) return { tokens: nCtx, source: 'GET /props (llama.cpp n_ctx)' };
  const shown = record(await ask('POST', `${root}/api/show`, { model }));
  const ollama = shown === null ? 0 : ollamaWindow(shown);
  if (ollama > 0) return { tokens: ollama, source: 'POST /api/show (Ollama)' };
  const studio = record(await ask('GET', `${root}/api/v0/models/${encodeURIComponent(model)}`));
  const lms = studio === null ? 0 : firstCount(studio.loaded_context_length, studio.max_context_length);
  if (lms > 0) return { tokens: lms, source: 'GET /api/v0/models (LM Studio)' };
  // llama.cpp's list says the window the model was trained with; the server may run a smaller one.
  const trained = entry === null ? 0 : firstCount(record(entry.meta)?.n_ctx_train);
  if (trained > 0) return { tokens: trained, source: `GET ${pathOf(base)}/models (n_ctx_train)` };
  return null;
}

/**
 * Ollama's own answer alone (`POST /api/show` at the server's root), for the `ollama` kind, which
 * knows what it talks to. Null when the server does not say.
 */
export async function discoverOllamaWindow(
  model: string,
  options: WindowProbeOptions,
): Promise<DiscoveredWindow | null> {
  const root = options.baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
  const shown = record(await requestJson('POST', `${root}/api/show`, { model }, options));
  const tokens = shown === null ? 0 : ollamaWindow(shown);
  return tokens > 0 ? { tokens, source: 'POST /api/show (Ollama)' } : null;
}

/** `num_ctx` from the model's parameters (what Ollama runs it with), else its trained `*.context_length`. */
function ollamaWindow(shown: Record<string, unknown>): number {
  const parameters = typeof shown.parameters === 'string' ? shown.parameters : '';
  const numCtx = /^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters);
  if (numCtx) return Number(numCtx[1]);
  const info = record(shown.model_info);
  if (info === null) return 0;
  const arch = typeof info['general.architecture'] === 'string' ? info['general.architecture'] : null;
  if (arch !== null) {
    const own = firstCount(info[`${arch}.context_length`]);
    if (own > 0) return own;
  }
  const key = Object.keys(info).find((k) => k.endsWith('.context_length'));
  return key === undefined ? 0 : firstCount(info[key]);
}

/** The entry for `model` in a `{ data: [...] }` list; Ollama lists `llama3.1` as `llama3.1:latest`. */
function modelEntry(listed: unknown, model: string): Record<string, unknown> | null {
  const data = record(listed)?.data;
  if (!Array.isArray(data)) return null;
  const entries = data.map(record).filter((e): e is Record<string, unknown> => e !== null);
  return entries.find((e) => e.id === model) ?? entries.find((e) => e.id === `${model}:latest`) ?? null;
}

async function requestJson(
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  options: WindowProbeOptions,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await httpFetch(url, {
      method,
      signal,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        ...options.headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_ANSWER_BYTES) {
      await response.body?.cancel();
      return null;
    }
    const text = await response.text();
    return text.length > MAX_ANSWER_BYTES ? null : JSON.parse(text);
  } catch {
    return null; // not this server's API, or not reachable: the next one is asked
  }
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function firstCount(...values: unknown[]): number {
  for (const value of values) {
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.round(value);
  }
  return 0;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}
