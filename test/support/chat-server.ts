/**
 * A real local OpenAI-compatible server for tests: Chat Completions (streaming SSE and plain
 * JSON) and `GET /v1/models` on 127.0.0.1, serving scripted replies. It never contacts anything
 * but its own socket.
 *
 * In a test: `const server = await startChatServer({ replies: [...] })`, point the client at
 * `server.url`, read `server.requests`, `await server.close()`.
 *
 * As a process (end-to-end tests):
 *   node --import tsx test/support/chat-server.ts --script FILE.json [--port N] [--record FILE.jsonl]
 * serves the replies in FILE (a JSON array of `ScriptedReply`), then echoes; prints
 * `listening <url>` on one line of stdout; `--record` appends every request as a JSON line.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface ScriptedToolCall {
  /** Omitted: the server makes one up. `null`: the stream carries no id (some servers do that). */
  readonly id?: string | null;
  readonly name: string;
  readonly arguments: string;
  /** Into how many stream fragments the arguments are cut (1 by default). */
  readonly fragments?: number;
}

export interface ScriptedError {
  readonly status: number;
  /** JSON value, or a string sent as is. Default: an OpenAI-style error object. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ScriptedReply {
  /** One string is one chunk; an array is one chunk per element. */
  readonly text?: string | readonly string[];
  readonly reasoning?: string | readonly string[];
  /** The delta field reasoning goes in: `reasoning_content` (vLLM, DeepSeek; default) or `reasoning` (OpenRouter). */
  readonly reasoningField?: 'reasoning_content' | 'reasoning';
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Default `tool_calls` when there are tool calls, else `stop`. `null`: no finish_reason at all. */
  readonly finishReason?: string | null;
  /**
   * Wire usage object sent as is. `null`: none. Omitted: estimated (4 characters a token), and in
   * a stream only when the request asked with `stream_options.include_usage`.
   */
  readonly usage?: Readonly<Record<string, unknown>> | null;
  /** Send finish_reason in a chunk of its own whose delta is empty (OpenAI does), not with the last delta. */
  readonly finishInEmptyChoices?: boolean;
  /** Send usage in a final chunk with `choices: []` (OpenAI does), not with the last chunk. */
  readonly usageInFinalChunk?: boolean;
  /** Wait between chunks. */
  readonly delayMs?: number;
  readonly error?: ScriptedError;
  /** Destroy the socket after this many chunks: no finish, no [DONE]. */
  readonly dropAfterChunks?: number;
  /** Wait this long before answering at all (no headers). */
  readonly hangMs?: number;
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Parsed JSON body; undefined for none or invalid JSON. */
  readonly body: ChatRequestBody | undefined;
}

export interface ChatRequestBody {
  readonly model?: string;
  readonly messages?: ReadonlyArray<{ readonly role: string; readonly content?: unknown; readonly [key: string]: unknown }>;
  readonly tools?: readonly unknown[];
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly [key: string]: unknown;
}

export type Responder = (request: RecordedRequest) => ScriptedReply;

export interface ChatServerOptions {
  /** Served in order, one per chat request. */
  readonly replies?: readonly ScriptedReply[];
  /** Answers when the queue is empty (before the default reply). */
  readonly respond?: Responder;
  /** When there is neither a queued reply nor `respond`. Default: `echo: <last user message>`. */
  readonly defaultReply?: ScriptedReply | Responder;
  /** Entries of `GET /v1/models`. */
  readonly models?: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly port?: number;
  /** Called with every request as it is recorded. */
  readonly onRequest?: (request: RecordedRequest) => void;
}

export interface ChatServer {
  /** Base URL, ending in /v1. */
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  push(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

const maxBodyBytes = 16 * 1024 * 1024;
const maxQueuedReplies = 10_000;
const defaultModels = [{ id: 'tole-test-model', object: 'model', owned_by: 'tole-test', context_length: 32_768 }];

export function echoReply(request: RecordedRequest): ScriptedReply {
  const messages = request.body?.messages ?? [];
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const content = typeof lastUser?.content === 'string' ? lastUser.content : JSON.stringify(lastUser?.content ?? '');
  return { text: `echo: ${content}` };
}

export async function startChatServer(options: ChatServerOptions = {}): Promise<ChatServer> {
  const queue: ScriptedReply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  const nextReply = (request: RecordedRequest): ScriptedReply => {
    const queued = queue.shift();
    if (queued !== undefined) return queued;
    if (options.respond !== undefined) return options.respond(request);
    const fallback = options.defaultReply ?? echoReply;
    return typeof fallback === 'function' ? fallback(request) : fallback;
  };
  const server = createServer((req, res) => {
    void handle(req, res, {
      record: (request) => {
        requests.push(request);
        options.onRequest?.(request);
      },
      nextReply,
      models: options.models ?? defaultModels,
      closing: closing.signal,
    }).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    push: (...replies) => {
      if (queue.length + replies.length > maxQueuedReplies) throw new Error(`chat-server: more than ${maxQueuedReplies} queued replies`);
      queue.push(...replies);
    },
    close: () => {
      closing.abort();
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface HandlerContext {
  readonly record: (request: RecordedRequest) => void;
  readonly nextReply: (request: RecordedRequest) => ScriptedReply;
  readonly models: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly closing: AbortSignal;
}

async function handle(req: IncomingMessage, res: ServerResponse, context: HandlerContext): Promise<void> {
  const raw = await readBody(req);
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const request: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body: raw === undefined ? undefined : parseJson(raw) };
  context.record(request);
  if (raw === undefined) return sendJson(res, 413, errorBody('request body too large', 'invalid_request_error'));
  if (request.method === 'GET' && (path === '/v1/models' || path === '/models')) {
    return sendJson(res, 200, { object: 'list', data: context.models });
  }
  if (request.method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions')) {
    if (request.body === undefined) return sendJson(res, 400, errorBody('the body is not valid JSON', 'invalid_request_error'));
    return serveReply(res, request.body, context.nextReply(request), stopSignal(res, context.closing));
  }
  return sendJson(res, 404, errorBody(`no route for ${request.method} ${path}`, 'invalid_request_error'));
}

/** Aborts when the client goes away or the server closes. */
function stopSignal(res: ServerResponse, closing: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const stop = (): void => {
    closing.removeEventListener('abort', stop);
    controller.abort();
  };
  res.on('close', stop);
  if (closing.aborted) stop();
  else closing.addEventListener('abort', stop, { once: true });
  return controller.signal;
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > maxBodyBytes) return undefined;
    parts.push(part);
  }
  return Buffer.concat(parts).toString('utf8');
}

function parseJson(raw: string): ChatRequestBody | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null ? (value as ChatRequestBody) : undefined;
  } catch {
    return undefined;
  }
}

function errorBody(message: string, type: string, code: string | null = null): unknown {
  return { error: { message, type, param: null, code } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json', ...headers });
  res.end(text);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

async function serveReply(res: ServerResponse, body: ChatRequestBody, reply: ScriptedReply, stop: AbortSignal): Promise<void> {
  if (reply.hangMs !== undefined) await wait(reply.hangMs, stop);
  if (stop.aborted) return;
  if (reply.error !== undefined) {
    const { status, headers } = reply.error;
    return sendJson(res, status, reply.error.body ?? errorBody('scripted error', status >= 500 ? 'server_error' : 'invalid_request_error'), headers);
  }
  if (body.stream === true) return streamReply(res, body, reply, stop);
  return sendJson(res, 200, completionBody(body, reply));
}

async function streamReply(res: ServerResponse, body: ChatRequestBody, reply: ScriptedReply, stop: AbortSignal): Promise<void> {
  const chunks = streamChunks(body, reply);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  for (const [sent, chunk] of chunks.entries()) {
    if (reply.dropAfterChunks !== undefined && sent >= reply.dropAfterChunks) {
      res.socket?.destroy();
      return;
    }
    if (sent > 0) await wait(reply.delayMs ?? 0, stop);
    if (stop.aborted) return;
    await writeChunk(res, `data: ${JSON.stringify(chunk)}\n\n`);
  }
  if (reply.dropAfterChunks !== undefined) {
    res.socket?.destroy();
    return;
  }
  res.end('data: [DONE]\n\n');
}

/** Resolves once the chunk is handed to the socket, so that a drop that follows comes after it. */
function writeChunk(res: ServerResponse, data: string): Promise<void> {
  return new Promise((resolve) => res.write(data, () => resolve()));
}

// ---- Building replies (pure). ----

function pieces(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : [...value];
}

function splitInto(text: string, count: number): string[] {
  const n = Math.max(1, Math.floor(count));
  const size = Math.ceil(text.length / n);
  return Array.from({ length: n }, (_, i) => text.slice(i * size, (i + 1) * size));
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function defaultFinish(reply: ScriptedReply): string | null {
  if (reply.finishReason !== undefined) return reply.finishReason;
  return (reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop';
}

function toolCallId(call: ScriptedToolCall, index: number): string | undefined {
  if (call.id === null) return undefined;
  return call.id ?? `call_srv_${index}`;
}

function usageFor(body: ChatRequestBody, reply: ScriptedReply, streaming: boolean): Record<string, unknown> | undefined {
  if (reply.usage === null) return undefined;
  if (reply.usage !== undefined) return { ...reply.usage };
  if (streaming && body.stream_options?.include_usage !== true) return undefined;
  const promptTokens = estimateTokens(JSON.stringify(body.messages ?? []));
  const output = pieces(reply.text).join('') + pieces(reply.reasoning).join('') + (reply.toolCalls ?? []).map((c) => c.name + c.arguments).join('');
  const completionTokens = estimateTokens(output);
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

interface ChunkChoice {
  index: number;
  delta: Record<string, unknown>;
  logprobs: null;
  finish_reason: string | null;
}

interface Chunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChunkChoice[];
  usage?: Record<string, unknown>;
}

/** Every SSE data object of a streamed reply, in order. */
export function streamChunks(body: ChatRequestBody, reply: ScriptedReply): Chunk[] {
  const meta = { id: 'chatcmpl-tole-test', object: 'chat.completion.chunk' as const, created: 0, model: body.model ?? 'unknown' };
  const chunk = (delta: Record<string, unknown>): Chunk => ({ ...meta, choices: [{ index: 0, delta, logprobs: null, finish_reason: null }] });
  const chunks: Chunk[] = [chunk({ role: 'assistant', content: '' })];
  const reasoningField = reply.reasoningField ?? 'reasoning_content';
  for (const piece of pieces(reply.reasoning)) chunks.push(chunk({ [reasoningField]: piece }));
  for (const piece of pieces(reply.text)) chunks.push(chunk({ content: piece }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    splitInto(call.arguments, call.fragments ?? 1).forEach((argumentsPiece, fragment) => {
      chunks.push(chunk({ tool_calls: [toolFragment(call, index, fragment, argumentsPiece)] }));
    });
  });
  const finish = defaultFinish(reply);
  if (finish !== null) {
    if (reply.finishInEmptyChoices === true || chunks.length === 1) chunks.push(chunk({}));
    chunks[chunks.length - 1].choices[0].finish_reason = finish;
  }
  const usage = usageFor(body, reply, true);
  if (usage !== undefined) {
    if (reply.usageInFinalChunk === true) chunks.push({ ...meta, choices: [], usage });
    else chunks[chunks.length - 1].usage = usage;
  }
  return chunks;
}

function toolFragment(call: ScriptedToolCall, index: number, fragment: number, argumentsPiece: string): Record<string, unknown> {
  if (fragment > 0) return { index, function: { arguments: argumentsPiece } };
  const id = toolCallId(call, index);
  return { index, ...(id === undefined ? {} : { id }), type: 'function', function: { name: call.name, arguments: argumentsPiece } };
}

export function completionBody(body: ChatRequestBody, reply: ScriptedReply): Record<string, unknown> {
  const text = pieces(reply.text).join('');
  const reasoning = pieces(reply.reasoning).join('');
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    ...(toolCallId(call, index) === undefined ? {} : { id: toolCallId(call, index) }),
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const message = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    ...(reasoning === '' ? {} : { [reply.reasoningField ?? 'reasoning_content']: reasoning }),
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
  };
  const usage = usageFor(body, reply, false);
  return {
    id: 'chatcmpl-tole-test',
    object: 'chat.completion',
    created: 0,
    model: body.model ?? 'unknown',
    choices: [{ index: 0, message, logprobs: null, finish_reason: defaultFinish(reply) }],
    ...(usage === undefined ? {} : { usage }),
  };
}

// ---- Standalone process. ----

function argValue(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(args: readonly string[]): Promise<void> {
  const scriptPath = argValue(args, '--script');
  const recordPath = argValue(args, '--record');
  const replies: unknown = scriptPath === undefined ? [] : JSON.parse(readFileSync(scriptPath, 'utf8'));
  if (!Array.isArray(replies)) throw new Error(`chat-server: ${scriptPath} must hold a JSON array of replies`);
  const server = await startChatServer({
    replies: replies as ScriptedReply[],
    port: Number(argValue(args, '--port') ?? 0),
    onRequest: recordPath === undefined ? undefined : (request) => appendFileSync(recordPath, `${JSON.stringify(request)}\n`),
  });
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`listening ${server.url}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`chat-server: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
