/**
 * A local Anthropic Messages server for tests, faithful to Anthropic's protocol documents:
 * - Messages API, https://docs.anthropic.com/en/api/messages: `POST /v1/messages` with
 *   `x-api-key` and `anthropic-version` headers; `max_tokens` required; user and assistant
 *   turns in turn, the first a user turn; every `tool_result` answers a `tool_use` of the turn
 *   before.
 * - Streaming, https://docs.anthropic.com/en/api/messages-streaming: `message_start` (a Message
 *   with empty content and the prompt's usage), then per content block `content_block_start`,
 *   `content_block_delta`s (`text_delta`, `input_json_delta`, `thinking_delta`,
 *   `signature_delta`) and `content_block_stop`; a `ping`; `message_delta` (stop_reason,
 *   cumulative `output_tokens`); `message_stop`. An `error` event may come mid-stream.
 * - Errors, https://docs.anthropic.com/en/api/errors: bodies `{"type":"error","error":{"type",
 *   "message"}}`; 429 `rate_limit_error` with `retry-after`, 529 `overloaded_error`, 400
 *   `invalid_request_error` ("prompt is too long: N tokens > M maximum").
 * - Prompt caching, https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching: the
 *   prefix is tools, then system, then messages; a `cache_control` block marks the end of a
 *   cacheable prefix, at most 4 per request. Here a prefix up to a breakpoint seen before is
 *   read (`cache_read_input_tokens`), the rest up to the last breakpoint is written
 *   (`cache_creation_input_tokens`), what follows it is `input_tokens`. Tokens are estimated
 *   at 4 characters each of the blocks' JSON.
 * - Extended thinking, https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking:
 *   thinking blocks carry a signature; when thinking is on, the assistant turn of an open tool
 *   round must send its thinking back unchanged (a changed or missing signature is refused).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { requestText } from './fake-server-http';

export interface AnthropicToolCall {
  readonly id?: string;
  readonly name: string;
  /** The input's JSON text, streamed in `fragments` pieces (1 by default). */
  readonly input: string;
  readonly fragments?: number;
}

export interface AnthropicReply {
  readonly thinking?: string;
  /** Sent as a `redacted_thinking` block before the answer. */
  readonly redactedThinking?: string;
  readonly text?: string | readonly string[];
  readonly toolCalls?: readonly AnthropicToolCall[];
  /** Default `tool_use` with tool calls, else `end_turn`. */
  readonly stopReason?: string;
  /** Answer with this status and error instead of a stream. */
  readonly error?: {
    readonly status: number;
    readonly type: string;
    readonly message: string;
    readonly headers?: Readonly<Record<string, string>>;
  };
  /** Send an `error` event after this many content blocks, and end the stream. */
  readonly streamError?: { readonly afterBlocks: number; readonly type: string; readonly message: string };
}

export interface MessagesRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: MessagesBody;
  /** The usage this request was answered with (none for a refused one). */
  usage?: Usage;
}

export interface MessagesBody {
  readonly model?: string;
  readonly max_tokens?: number;
  readonly system?: readonly Block[];
  readonly messages?: readonly { readonly role: string; readonly content: string | readonly Block[] }[];
  readonly tools?: readonly Block[];
  readonly thinking?: { readonly type: string; readonly budget_tokens: number };
  readonly [key: string]: unknown;
}

export type Block = Readonly<Record<string, unknown>>;

export interface Usage {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
  readonly output_tokens: number;
}

export interface AnthropicServerOptions {
  readonly replies?: readonly AnthropicReply[];
  /** When the queue is empty. Default: `echo: <last user text>`. */
  readonly respond?: (request: MessagesRequest) => AnthropicReply;
  /** The key `x-api-key` must carry; any key when unset. */
  readonly apiKey?: string;
  /** The window: a prompt of more tokens is refused as too long. */
  readonly contextWindowTokens?: number;
  /** The ids `GET /v1/models` lists, newest first. Default: two Claude models. */
  readonly models?: readonly string[];
}

export interface AnthropicServer {
  /** Base URL without /v1, as a user writes it for this provider. */
  readonly url: string;
  readonly requests: MessagesRequest[];
  push(...replies: AnthropicReply[]): void;
  /** Usage over every answered request. */
  totals(): Usage;
  close(): Promise<void>;
}

/**
 * `GET /v1/models` as the Models API answers it (https://docs.anthropic.com/en/api/models-list):
 * the key and version headers required, `limit` (1 to 1000, 20 unless given) models a page after
 * `after_id`, `{data: [{type: "model", id, display_name, created_at}], has_more, first_id, last_id}`.
 */
function listModels(req: IncomingMessage, res: ServerResponse, url: URL, options: AnthropicServerOptions): void {
  const key = req.headers['x-api-key'];
  if (typeof key !== 'string' || key === '' || (options.apiKey !== undefined && key !== options.apiKey))
    return sendError(res, 401, 'authentication_error', 'invalid x-api-key');
  if (req.headers['anthropic-version'] === undefined)
    return sendError(res, 400, 'invalid_request_error', 'anthropic-version: header is required');
  const ids = options.models ?? ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001'];
  const limit = Number(url.searchParams.get('limit') ?? '20');
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    return sendError(res, 400, 'invalid_request_error', 'limit: must be between 1 and 1000');
  const after = url.searchParams.get('after_id');
  const start = after === null ? 0 : ids.indexOf(after) + 1;
  const page = ids.slice(start, start + limit);
  const body = {
    data: page.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z' })),
    has_more: start + limit < ids.length,
    first_id: page[0] ?? null,
    last_id: page.at(-1) ?? null,
  };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const SIGNING_KEY = 'tole-test-thinking';
const MAX_BREAKPOINTS = 4;

export function signThinking(thinking: string): string {
  return createHash('sha256').update(`${SIGNING_KEY}\n${thinking}`).digest('base64');
}

export function tokensOf(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

export async function startAnthropicServer(options: AnthropicServerOptions = {}): Promise<AnthropicServer> {
  const queue = [...(options.replies ?? [])];
  const requests: MessagesRequest[] = [];
  const cache = new Set<string>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await requestText(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (req.method === 'GET' && path === '/v1/models') return listModels(req, res, url, options);
    if (req.method !== 'POST' || path !== '/v1/messages')
      return sendError(res, 404, 'not_found_error', `no route for ${req.method} ${path}`);
    let body: MessagesBody;
    try {
      body = JSON.parse(raw) as MessagesBody;
    } catch {
      return sendError(res, 400, 'invalid_request_error', 'the body is not valid JSON');
    }
    const request: MessagesRequest = { headers: req.headers, body };
    requests.push(request);
    const key = req.headers['x-api-key'];
    if (typeof key !== 'string' || key === '' || (options.apiKey !== undefined && key !== options.apiKey))
      return sendError(res, 401, 'authentication_error', 'invalid x-api-key');
    if (req.headers['anthropic-version'] === undefined)
      return sendError(res, 400, 'invalid_request_error', 'anthropic-version: header is required');
    const invalid = validate(body);
    if (invalid !== null) return sendError(res, 400, 'invalid_request_error', invalid);
    const reply = queue.shift() ?? options.respond?.(request) ?? echo(body);
    if (reply.error)
      return sendError(res, reply.error.status, reply.error.type, reply.error.message, reply.error.headers);
    const prompt = promptTokens(body, cache);
    const window = options.contextWindowTokens;
    const total = prompt.input_tokens + prompt.cache_creation_input_tokens + prompt.cache_read_input_tokens;
    if (window !== undefined && total > window)
      return sendError(res, 400, 'invalid_request_error', `prompt is too long: ${total} tokens > ${window} maximum`);
    for (const written of prompt.written) cache.add(written);
    request.usage = stream(res, body, reply, prompt);
  };
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    push: (...replies) => void queue.push(...replies),
    totals: () => {
      const sum = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };
      for (const { usage } of requests) {
        if (usage === undefined) continue;
        for (const field of Object.keys(sum) as (keyof Usage)[]) sum[field] += usage[field];
      }
      return sum;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function echo(body: MessagesBody): AnthropicReply {
  const last = body.messages?.[body.messages.length - 1];
  const content = typeof last?.content === 'string' ? [{ type: 'text', text: last.content }] : (last?.content ?? []);
  const text = content
    .filter((b) => b['type'] === 'text')
    .map((b) => b['text'])
    .join(' ');
  return { text: `echo: ${text}` };
}

/** What the API refuses (a message saying why), or null. */
function validate(body: MessagesBody): string | null {
  if (typeof body.model !== 'string' || body.model === '') return 'model: Field required';
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  const messages = body.messages ?? [];
  if (messages.length === 0 || messages[0]!.role !== 'user')
    return 'messages: the first message must use the "user" role';
  const thinkingOn = body.thinking?.type === 'enabled';
  if (thinkingOn && !(body.thinking!.budget_tokens >= 1024 && body.thinking!.budget_tokens < body.max_tokens))
    return 'thinking.budget_tokens: must be at least 1024 and less than max_tokens';
  let breakpoints = [...(body.tools ?? []), ...(body.system ?? [])].filter((b) => b['cache_control']).length;
  let openCalls: string[] = [];
  for (const [i, message] of messages.entries()) {
    if (i > 0 && messages[i - 1]!.role === message.role) return `messages: roles must alternate (message ${i})`;
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (blocks.length === 0) return `messages.${i}: content may not be empty`;
    breakpoints += blocks.filter((b) => b['cache_control']).length;
    if (message.role === 'user') {
      const answered = blocks.filter((b) => b['type'] === 'tool_result').map((b) => b['tool_use_id']);
      for (const id of answered)
        if (!openCalls.includes(id as string))
          return `messages.${i}: tool_result for unknown tool_use id ${String(id)}`;
      if (openCalls.some((id) => !answered.includes(id)))
        return `messages.${i}: tool_use ids were found without tool_result blocks immediately after`;
      openCalls = [];
      continue;
    }
    const problem = checkAssistant(blocks, i, thinkingOn && i === lastAssistantWithTools(messages));
    if (problem !== null) return problem;
    openCalls = blocks.filter((b) => b['type'] === 'tool_use').map((b) => b['id'] as string);
  }
  if (breakpoints > MAX_BREAKPOINTS)
    return `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`;
  return null;
}

function lastAssistantWithTools(messages: NonNullable<MessagesBody['messages']>): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    return typeof message.content !== 'string' && message.content.some((b) => b['type'] === 'tool_use') ? i : -1;
  }
  return -1;
}

function checkAssistant(blocks: readonly Block[], i: number, mustThink: boolean): string | null {
  for (const block of blocks) {
    if (block['type'] === 'thinking' && block['signature'] !== signThinking(String(block['thinking'])))
      return `messages.${i}.content: Invalid \`signature\` in \`thinking\` block`;
    if (block['type'] === 'tool_use' && (typeof block['input'] !== 'object' || block['input'] === null))
      return `messages.${i}.content: tool_use.input: Input should be a valid dictionary`;
  }
  const first = blocks[0]?.['type'];
  if (mustThink && first !== 'thinking' && first !== 'redacted_thinking')
    return `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`;
  return null;
}

interface PromptCount extends Omit<Usage, 'output_tokens'> {
  /** The prefixes this request writes to the cache. */
  readonly written: readonly string[];
}

/** The prompt's tokens split into cache reads, cache writes and the rest (see the file's comment). */
function promptTokens(body: MessagesBody, cache: ReadonlySet<string>): PromptCount {
  const units: Block[] = [...(body.tools ?? []), ...(body.system ?? [])];
  for (const message of body.messages ?? []) {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    units.push(...blocks.map((b) => ({ role: message.role, ...b })));
  }
  const hash = createHash('sha256');
  let tokens = 0;
  const breakpoints: { key: string; tokens: number }[] = [];
  for (const unit of units) {
    const { cache_control, ...plain } = unit;
    hash.update(JSON.stringify(plain));
    tokens += tokensOf(plain);
    if (cache_control) breakpoints.push({ key: hash.copy().digest('hex'), tokens });
  }
  const read = Math.max(0, ...breakpoints.filter((b) => cache.has(b.key)).map((b) => b.tokens));
  const last = breakpoints[breakpoints.length - 1];
  const written = last === undefined || last.tokens <= read ? 0 : last.tokens - read;
  return {
    input_tokens: tokens - read - written,
    cache_read_input_tokens: read,
    cache_creation_input_tokens: written,
    written: breakpoints.map((b) => b.key),
  };
}

/** Streams the reply; returns the usage it reported. */
function stream(res: ServerResponse, body: MessagesBody, reply: AnthropicReply, prompt: PromptCount): Usage {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: Record<string, unknown>): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  };
  const { written: _written, ...promptUsage } = prompt;
  send('message_start', {
    message: {
      id: `msg_${createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 12)}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...promptUsage, output_tokens: 1 },
    },
  });
  send('ping', {});
  const blocks = replyBlocks(reply);
  let output = 0;
  for (const [index, block] of blocks.entries()) {
    if (reply.streamError !== undefined && index === reply.streamError.afterBlocks) {
      send('error', { error: { type: reply.streamError.type, message: reply.streamError.message } });
      res.end();
      return { ...promptUsage, output_tokens: output };
    }
    output += streamBlock(send, index, block);
  }
  if (reply.streamError !== undefined && reply.streamError.afterBlocks >= blocks.length) {
    send('error', { error: { type: reply.streamError.type, message: reply.streamError.message } });
    res.end();
    return { ...promptUsage, output_tokens: output };
  }
  const stopReason = reply.stopReason ?? ((reply.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn');
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: output } });
  send('message_stop', {});
  res.end();
  return { ...promptUsage, output_tokens: output };
}

type ReplyBlock =
  | { type: 'thinking'; thinking: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'text'; parts: readonly string[] }
  | { type: 'tool_use'; call: AnthropicToolCall; id: string };

function replyBlocks(reply: AnthropicReply): ReplyBlock[] {
  const blocks: ReplyBlock[] = [];
  if (reply.thinking !== undefined) blocks.push({ type: 'thinking', thinking: reply.thinking });
  if (reply.redactedThinking !== undefined) blocks.push({ type: 'redacted_thinking', data: reply.redactedThinking });
  if (reply.text !== undefined)
    blocks.push({ type: 'text', parts: typeof reply.text === 'string' ? [reply.text] : reply.text });
  for (const [i, call] of (reply.toolCalls ?? []).entries())
    blocks.push({ type: 'tool_use', call, id: call.id ?? `toolu_${i}_${Math.random().toString(36).slice(2, 10)}` });
  return blocks;
}

/** One content block's events; returns its output tokens. */
function streamBlock(
  send: (event: string, data: Record<string, unknown>) => void,
  index: number,
  block: ReplyBlock,
): number {
  const delta = (d: Record<string, unknown>): void => send('content_block_delta', { index, delta: d });
  switch (block.type) {
    case 'thinking':
      send('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      delta({ type: 'thinking_delta', thinking: block.thinking });
      delta({ type: 'signature_delta', signature: signThinking(block.thinking) });
      break;
    case 'redacted_thinking':
      send('content_block_start', { index, content_block: { type: 'redacted_thinking', data: block.data } });
      break;
    case 'text':
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const part of block.parts) delta({ type: 'text_delta', text: part });
      break;
    case 'tool_use': {
      send('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.call.name, input: {} },
      });
      const pieces = Math.max(1, block.call.fragments ?? 1);
      const size = Math.ceil(block.call.input.length / pieces);
      for (let at = 0; at < block.call.input.length; at += size)
        delta({ type: 'input_json_delta', partial_json: block.call.input.slice(at, at + size) });
      break;
    }
  }
  send('content_block_stop', { index });
  return tokensOf(block);
}

function sendError(
  res: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ type: 'error', error: { type, message } }));
}
