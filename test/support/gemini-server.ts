/**
 * A local stand-in for the Gemini API (generativelanguage.googleapis.com), for tests, on
 * 127.0.0.1, following its reference:
 * - `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` ("Generating content",
 *   https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent): the key in
 *   `x-goog-api-key` ("API keys"); the answer `text/event-stream`, each event `data: ` and a whole
 *   GenerateContentResponse: `candidates[0].content` (`role: "model"`, `parts`: `{text}`, a thought
 *   summary `{text, thought: true}`, `{functionCall: {name, args}}` sent whole), `finishReason`
 *   (`STOP`, also after calls; `MAX_TOKENS`) on the last, `usageMetadata` (`promptTokenCount`,
 *   `candidatesTokenCount`, `totalTokenCount`, `cachedContentTokenCount` when part of the prompt
 *   was read from cache, `thoughtsTokenCount`) and `modelVersion`. No end mark.
 * - Implicit caching ("Context caching", https://ai.google.dev/gemini-api/docs/caching, "Implicit
 *   caching"): a request whose prompt starts with the same turns as an earlier one reads that
 *   prefix from cache, reported in `cachedContentTokenCount`, once it is at least 1024 tokens.
 * - `GET /v1beta/models/{model}` ("Models", https://ai.google.dev/api/models#Model): the model
 *   with `inputTokenLimit` and `outputTokenLimit`.
 * - `GET /v1beta/models` ("models.list", https://ai.google.dev/api/models#method:-models.list):
 *   `pageSize` models (50 unless given, at most 1000) a page from `pageToken`, as `{models: [Model],
 *   nextPageToken}` (no token on the last page).
 * - Errors in Google's error model (https://ai.google.dev/gemini-api/docs/troubleshooting):
 *   `{"error": {"code", "message", "status", "details"}}`; a wrong key is 400 INVALID_ARGUMENT with
 *   reason API_KEY_INVALID; an unknown model 404 NOT_FOUND.
 * Tokens are counted as 4 characters each. It never contacts anything but its own socket.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { jsonObject, pieces as list, requestText, sendJson as sendAnyJson } from './fake-server-http';

export interface GeminiScriptedCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** Sent as `functionCall.id` when given. */
  readonly id?: string;
}

export interface GeminiScriptedReply {
  readonly text?: string | readonly string[];
  readonly thoughts?: string | readonly string[];
  readonly calls?: readonly GeminiScriptedCall[];
  /** Default STOP. */
  readonly finishReason?: string;
  /** A refusal before the stream: status and Google's error object. */
  readonly error?: {
    readonly status: number;
    readonly code: string;
    readonly message: string;
    readonly details?: readonly unknown[];
    readonly headers?: Record<string, string>;
  };
  /** The prompt is blocked: one event with `promptFeedback.blockReason` and no candidates. */
  readonly blockReason?: string;
  /** Destroy the socket after this many events. */
  readonly dropAfterEvents?: number;
}

export interface GeminiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Record<string, unknown> | undefined;
}

export interface GeminiServerOptions {
  readonly replies?: readonly GeminiScriptedReply[];
  /** The key the server takes. Default `gemini-test-key`. */
  readonly apiKey?: string;
  readonly models?: readonly string[];
  readonly inputTokenLimit?: number;
  /**
   * As Gemini 3 models do ("Thought signatures", https://ai.google.dev/gemini-api/docs/thought-signatures):
   * every functionCall part carries a `thoughtSignature`, and a request whose history holds a
   * functionCall part without the signature it was sent with is refused with 400 INVALID_ARGUMENT.
   */
  readonly signFunctionCalls?: boolean;
}

export interface GeminiServer {
  /** The API's base, as the preset gives it: http://127.0.0.1:PORT/v1beta */
  readonly url: string;
  readonly requests: GeminiRequest[];
  /** Bodies of the generate requests, in order. */
  readonly generations: () => Record<string, unknown>[];
  /** Tokens read from cache so far, and prompt tokens in all. */
  readonly counters: { cachedTokens: number; promptTokens: number };
  push(...replies: GeminiScriptedReply[]): void;
  close(): Promise<void>;
}

export const GEMINI_TEST_KEY = 'gemini-test-key';
/** The smallest prefix implicit caching reads (Gemini 2.5 Flash: 1024 tokens). */
const MIN_CACHED_TOKENS = 1024;

export async function startGeminiServer(options: GeminiServerOptions = {}): Promise<GeminiServer> {
  const queue = [...(options.replies ?? [])];
  const requests: GeminiRequest[] = [];
  const sockets = new Set<Socket>();
  const models = options.models ?? ['gemini-2.5-flash'];
  const key = options.apiKey ?? GEMINI_TEST_KEY;
  const seenPrompts: string[][] = [];
  /** Signature → the call it was sent with (name and arguments as JSON). */
  const signed = new Map<string, string>();
  const counters = { cachedTokens: 0, promptTokens: 0 };
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await requestText(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: GeminiRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.search,
        headers: req.headers,
        body: jsonObject(raw),
      };
      requests.push(request);
      if (req.headers['x-goog-api-key'] !== key) {
        return sendError(res, 400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
        ]);
      }
      const generate = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/.exec(url.pathname);
      const model = /^\/v1beta\/models\/([^/:]+)$/.exec(url.pathname);
      if (request.method === 'GET' && url.pathname === '/v1beta/models') {
        const size = Math.min(1000, Number(url.searchParams.get('pageSize') ?? '50') || 50);
        const start = Number(url.searchParams.get('pageToken') ?? '0') || 0;
        const page = models.slice(start, start + size).map((name) => ({
          name: `models/${name}`,
          inputTokenLimit: options.inputTokenLimit ?? 1_048_576,
          outputTokenLimit: 65_536,
          supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
        }));
        return sendJson(res, 200, {
          models: page,
          ...(start + size < models.length ? { nextPageToken: String(start + size) } : {}),
        });
      }
      if (request.method === 'GET' && model) {
        if (!models.includes(model[1]!)) return modelNotFound(res, model[1]!);
        return sendJson(res, 200, {
          name: `models/${model[1]}`,
          inputTokenLimit: options.inputTokenLimit ?? 1_048_576,
          outputTokenLimit: 65_536,
          supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
        });
      }
      if (request.method === 'POST' && generate) {
        if (!models.includes(generate[1]!)) return modelNotFound(res, generate[1]!);
        if (url.searchParams.get('alt') !== 'sse')
          return sendError(res, 400, 'INVALID_ARGUMENT', 'this stand-in streams SSE only');
        if (request.body === undefined || !Array.isArray(request.body.contents))
          return sendError(res, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
        if (options.signFunctionCalls && !signaturesKept(request.body, signed)) {
          return sendError(
            res,
            400,
            'INVALID_ARGUMENT',
            'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance.',
          );
        }
        const reply = queue.shift() ?? echo(request.body);
        if (reply.error !== undefined) {
          const { status, code, message, details, headers } = reply.error;
          return sendError(res, status, code, message, details, headers);
        }
        const usage = usageOf(request.body, reply, seenPrompts);
        counters.cachedTokens += usage.cachedContentTokenCount ?? 0;
        counters.promptTokens += usage.promptTokenCount;
        return streamReply(res, generate[1]!, reply, usage, options.signFunctionCalls ? signed : null);
      }
      return sendError(res, 404, 'NOT_FOUND', `no route ${request.method} ${url.pathname}`);
    })().catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1beta`,
    requests,
    generations: () =>
      requests.filter((r) => r.path.endsWith(':streamGenerateContent') && r.body !== undefined).map((r) => r.body!),
    counters,
    push: (...replies) => void queue.push(...replies),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function modelNotFound(res: ServerResponse, model: string): void {
  sendError(
    res,
    404,
    'NOT_FOUND',
    `models/${model} is not found for API version v1beta, or is not supported for generateContent.`,
  );
}

function echo(body: Record<string, unknown>): GeminiScriptedReply {
  const contents = body.contents as { role?: string; parts?: { text?: string }[] }[];
  const lastUser = [...contents].reverse().find((c) => c.role === 'user' && c.parts?.some((p) => p.text !== undefined));
  return { text: `echo: ${lastUser?.parts?.find((p) => p.text !== undefined)?.text ?? ''}` };
}

interface Usage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

/**
 * The prompt as the cache sees it: system instruction and tools first, then each turn. The
 * longest run of leading pieces shared with an earlier prompt is read from cache.
 */
function usageOf(body: Record<string, unknown>, reply: GeminiScriptedReply, seen: string[][]): Usage {
  const pieces = [
    JSON.stringify(body.systemInstruction ?? null),
    JSON.stringify(body.tools ?? null),
    ...(body.contents as unknown[]).map((content) => JSON.stringify(content)),
  ];
  const tokens = (list: readonly string[]): number => Math.ceil(list.join('').length / 4);
  let shared = 0;
  for (const earlier of seen) {
    let n = 0;
    while (n < earlier.length && n < pieces.length && earlier[n] === pieces[n]) n += 1;
    shared = Math.max(shared, n);
  }
  seen.push(pieces);
  const promptTokenCount = tokens(pieces);
  const cached = tokens(pieces.slice(0, shared));
  const output = [...list(reply.text), JSON.stringify(reply.calls ?? [])].join('');
  const thoughts = list(reply.thoughts).join('');
  const candidatesTokenCount = Math.ceil(output.length / 4);
  const thoughtsTokenCount = Math.ceil(thoughts.length / 4);
  return {
    promptTokenCount,
    candidatesTokenCount,
    totalTokenCount: promptTokenCount + candidatesTokenCount + thoughtsTokenCount,
    ...(cached >= MIN_CACHED_TOKENS ? { cachedContentTokenCount: cached } : {}),
    ...(thoughtsTokenCount > 0 ? { thoughtsTokenCount } : {}),
  };
}

/** Every functionCall of the history's model turns carries the signature the server gave that very call. */
function signaturesKept(body: Record<string, unknown>, signed: ReadonlyMap<string, string>): boolean {
  const contents = body.contents as {
    role?: string;
    parts?: { functionCall?: unknown; thoughtSignature?: unknown }[];
  }[];
  return contents
    .filter((content) => content.role === 'model')
    .flatMap((content) => content.parts ?? [])
    .filter((part) => part.functionCall !== undefined)
    .every(
      (part) =>
        typeof part.thoughtSignature === 'string' && signed.get(part.thoughtSignature) === callKey(part.functionCall),
    );
}

function callKey(call: unknown): string {
  const { name, args } = call as { name?: unknown; args?: unknown };
  return JSON.stringify([name, args]);
}

async function streamReply(
  res: ServerResponse,
  model: string,
  reply: GeminiScriptedReply,
  usage: Usage,
  signed: Map<string, string> | null,
): Promise<void> {
  const events = replyEvents(model, reply, usage);
  if (signed !== null) signCalls(events, signed);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  for (const [sent, event] of events.entries()) {
    if (reply.dropAfterEvents !== undefined && sent >= reply.dropAfterEvents) {
      res.socket?.destroy();
      return;
    }
    await new Promise<void>((resolve) => res.write(`data: ${JSON.stringify(event)}\r\n\r\n`, () => resolve()));
  }
  res.end();
}

/** The events of a reply: one per part, the finish reason and the usage on the last. */
export function replyEvents(model: string, reply: GeminiScriptedReply, usage: Usage): Record<string, unknown>[] {
  const modelVersion = model;
  if (reply.blockReason !== undefined) {
    return [{ promptFeedback: { blockReason: reply.blockReason }, usageMetadata: usage, modelVersion }];
  }
  const parts: Record<string, unknown>[] = [
    ...list(reply.thoughts).map((text) => ({ text, thought: true })),
    ...list(reply.text).map((text) => ({ text })),
    ...(reply.calls ?? []).map((call) => ({
      functionCall: { name: call.name, args: call.args, ...(call.id === undefined ? {} : { id: call.id }) },
    })),
  ];
  if (parts.length === 0) parts.push({ text: '' });
  return parts.map((part, index) => {
    const last = index === parts.length - 1;
    return {
      candidates: [
        {
          content: { parts: [part], role: 'model' },
          index: 0,
          ...(last ? { finishReason: reply.finishReason ?? 'STOP' } : {}),
        },
      ],
      usageMetadata: last
        ? usage
        : { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount },
      modelVersion,
      responseId: 'test-response',
    };
  });
}

/** Gives each functionCall part a fresh signature, remembered with the call it signs. */
function signCalls(events: Record<string, unknown>[], signed: Map<string, string>): void {
  for (const event of events) {
    const candidates = event.candidates as { content: { parts: Record<string, unknown>[] } }[] | undefined;
    for (const part of candidates?.[0]?.content.parts ?? []) {
      if (part.functionCall === undefined) continue;
      const signature = `c2lnbmF0dXJl-${signed.size + 1}`;
      signed.set(signature, callKey(part.functionCall));
      part.thoughtSignature = signature;
    }
  }
}

function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  details?: readonly unknown[],
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { code: status, message, status: code, ...(details ? { details } : {}) } }, headers);
}

/** A JSON answer with the content type Google's API spells. */
function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendAnyJson(res, status, body, { 'content-type': 'application/json; charset=UTF-8', ...headers });
}
