/**
 * A local stand-in for Ollama's native API, for tests, on 127.0.0.1, following Ollama's API
 * reference (docs/api.md in github.com/ollama/ollama):
 * - `POST /api/chat` ("Generate a chat completion"): with `stream` true (or absent) the answer is
 *   `application/x-ndjson`, one JSON object a line, each `{model, created_at, message: {role:
 *   "assistant", content, thinking?, tool_calls?}, done: false}`; tool calls come whole, their
 *   `function.arguments` an object; the last line is `done: true` with `done_reason` and the
 *   counts `prompt_eval_count`, `eval_count` and durations. With `stream: false`, one such object.
 * - `POST /api/show` ("Show Model Information"): `parameters` (Modelfile lines such as
 *   `num_ctx 8192`) and `model_info` (`general.architecture`, `<arch>.context_length`).
 * - `GET /api/tags` ("List Local Models") and `GET /api/version`.
 * - `GET /v1/models` from Ollama's OpenAI compatibility (docs/openai.md, "/v1/models"): `{object:
 *   "list", data: [{id, object: "model", created, owned_by}]}`, each id the model's tagged name
 *   (`llama3.1:latest`), which is how tole's first-run probe finds a local Ollama.
 * - Errors are a status with `{"error": "<text>"}` ("Errors"); an unknown model is 404
 *   `model "x" not found, try pulling it first`; an error inside a stream is a line `{"error": ...}`.
 * Like Ollama, a prompt longer than `options.num_ctx` (default 2048 here, as Ollama's was) is cut
 * from the front; `prompt_eval_count` counts what was kept, so a test sees the truncation.
 * It never contacts anything but its own socket.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { jsonObject, pieces, requestText, sendJson } from './fake-server-http';

export interface OllamaScriptedCall {
  readonly name: string;
  /** The arguments object (Ollama sends an object, not text). */
  readonly arguments: Record<string, unknown>;
  /** Newer Ollama servers send an id; omitted, none is sent. */
  readonly id?: string;
}

export interface OllamaScriptedReply {
  /** One string is one line; an array is a line per element. */
  readonly text?: string | readonly string[];
  readonly thinking?: string | readonly string[];
  readonly toolCalls?: readonly OllamaScriptedCall[];
  /** Default `stop`. */
  readonly doneReason?: string;
  /** A refusal before any line: status and `{"error": message}`. */
  readonly error?: { readonly status: number; readonly message: string; readonly headers?: Record<string, string> };
  /** After this many lines, an `{"error": ...}` line and the end of the stream. */
  readonly errorLineAfter?: { readonly lines: number; readonly message: string };
  /** Answer 200 with a web page, as a proxy or login page in front of the server does. */
  readonly htmlPage?: boolean;
  /** Destroy the socket after this many lines (no done line). */
  readonly dropAfterLines?: number;
}

export interface OllamaRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Record<string, unknown> | undefined;
}

export interface OllamaServerOptions {
  readonly replies?: readonly OllamaScriptedReply[];
  /** Models the server has; a chat or show for another is 404. Default: `llama3.1`. */
  readonly models?: readonly string[];
  /** `num_ctx` in the models' Modelfile parameters (what /api/show says); none by default. */
  readonly parameterNumCtx?: number;
  /** `<arch>.context_length` in /api/show's model_info. Default 131072. */
  readonly trainedContextLength?: number;
}

export interface OllamaServer {
  /** The server's root, as Ollama's base URL is given: http://127.0.0.1:PORT */
  readonly url: string;
  readonly requests: OllamaRequest[];
  /** The chat requests' bodies, in order. */
  readonly chats: () => Record<string, unknown>[];
  push(...replies: OllamaScriptedReply[]): void;
  close(): Promise<void>;
}

/** Ollama's default window when a request sets no num_ctx (2048 in the versions that cut silently). */
export const OLLAMA_DEFAULT_NUM_CTX = 2048;

export async function startOllamaServer(options: OllamaServerOptions = {}): Promise<OllamaServer> {
  const queue = [...(options.replies ?? [])];
  const requests: OllamaRequest[] = [];
  const sockets = new Set<Socket>();
  const models = options.models ?? ['llama3.1'];
  const known = (name: unknown): boolean =>
    typeof name === 'string' && (models.includes(name) || models.includes(name.replace(/:latest$/, '')));
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await requestText(req);
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const request: OllamaRequest = {
        method: req.method ?? 'GET',
        path,
        headers: req.headers,
        body: jsonObject(raw),
      };
      requests.push(request);
      const route = `${request.method} ${path}`;
      if (route === 'GET /api/version') return sendJson(res, 200, { version: '0.12.0' });
      if (route === 'GET /api/tags')
        return sendJson(res, 200, {
          models: models.map((name) => ({ name: `${name}:latest`, model: `${name}:latest` })),
        });
      if (route === 'GET /v1/models')
        return sendJson(res, 200, {
          object: 'list',
          data: models.map((name) => ({
            id: tagged(name),
            object: 'model',
            created: 1_700_000_000,
            owned_by: 'library',
          })),
        });
      if (route === 'POST /api/show') {
        if (!known(request.body?.model)) return notFound(res, request.body?.model);
        return sendJson(res, 200, showBody(options));
      }
      if (route === 'POST /api/chat') {
        if (request.body === undefined) return sendJson(res, 400, { error: 'invalid JSON body' });
        if (!known(request.body.model)) return notFound(res, request.body.model);
        const reply = queue.shift() ?? echo(request.body);
        return serveChat(res, request.body, reply);
      }
      return sendJson(res, 404, { error: `no route ${route}` });
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
    url: `http://127.0.0.1:${port}`,
    requests,
    chats: () => requests.filter((r) => r.path === '/api/chat' && r.body !== undefined).map((r) => r.body!),
    push: (...replies) => void queue.push(...replies),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A model's name as Ollama lists it: with its tag, `:latest` when it was pulled without one. */
function tagged(name: string): string {
  return name.includes(':') ? name : `${name}:latest`;
}

function showBody(options: OllamaServerOptions): Record<string, unknown> {
  return {
    modelfile: '# Modelfile generated by the test server',
    parameters: [
      'stop                           "<|eot_id|>"',
      ...(options.parameterNumCtx === undefined ? [] : [`num_ctx                        ${options.parameterNumCtx}`]),
    ].join('\n'),
    template: '{{ .Prompt }}',
    details: { format: 'gguf', family: 'llama', parameter_size: '8.0B', quantization_level: 'Q4_K_M' },
    model_info: {
      'general.architecture': 'llama',
      'llama.context_length': options.trainedContextLength ?? 131_072,
    },
    capabilities: ['completion', 'tools'],
  };
}

function notFound(res: ServerResponse, model: unknown): void {
  sendJson(res, 404, { error: `model "${String(model)}" not found, try pulling it first` });
}

function echo(body: Record<string, unknown>): OllamaScriptedReply {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; content?: unknown }[]) : [];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  return { text: `echo: ${String(lastUser?.content ?? '')}` };
}

async function serveChat(
  res: ServerResponse,
  body: Record<string, unknown>,
  reply: OllamaScriptedReply,
): Promise<void> {
  if (reply.error !== undefined) {
    return sendJson(res, reply.error.status, { error: reply.error.message }, reply.error.headers);
  }
  if (reply.htmlPage) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html><body><h1>Sign in</h1></body></html>');
    return;
  }
  const lines = chatLines(body, reply);
  if (body.stream === false) {
    const text = lines.map((l) => (l.message as { content: string }).content).join('');
    const last = lines[lines.length - 1]!;
    return sendJson(res, 200, { ...last, message: { ...(last.message as object), content: text } });
  }
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  res.flushHeaders();
  for (const [sent, line] of lines.entries()) {
    if (reply.dropAfterLines !== undefined && sent >= reply.dropAfterLines) {
      res.socket?.destroy();
      return;
    }
    if (reply.errorLineAfter !== undefined && sent === reply.errorLineAfter.lines) {
      res.end(`${JSON.stringify({ error: reply.errorLineAfter.message })}\n`);
      return;
    }
    await new Promise<void>((resolve) => res.write(`${JSON.stringify(line)}\n`, () => resolve()));
  }
  res.end();
}

/** Every line of a streamed reply, the done line last. */
export function chatLines(body: Record<string, unknown>, reply: OllamaScriptedReply): Record<string, unknown>[] {
  const model = String(body.model);
  const createdAt = '2026-01-01T00:00:00.000000Z';
  const message = (fields: Record<string, unknown>): Record<string, unknown> => ({
    model,
    created_at: createdAt,
    message: { role: 'assistant', content: '', ...fields },
    done: false,
  });
  const lines = [
    ...pieces(reply.thinking).map((thinking) => message({ thinking })),
    ...pieces(reply.text).map((content) => message({ content })),
  ];
  if ((reply.toolCalls ?? []).length > 0) {
    lines.push(
      message({
        tool_calls: reply.toolCalls!.map((call, index) => ({
          ...(call.id === undefined ? {} : { id: call.id }),
          function: { index, name: call.name, arguments: call.arguments },
        })),
      }),
    );
  }
  const output = [...pieces(reply.thinking), ...pieces(reply.text), JSON.stringify(reply.toolCalls ?? [])].join('');
  lines.push({
    model,
    created_at: createdAt,
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: reply.doneReason ?? 'stop',
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: promptEvalCount(body),
    prompt_eval_duration: 200_000,
    eval_count: Math.ceil(output.length / 4),
    eval_duration: 700_000,
  });
  return lines;
}

/** The prompt's tokens (4 characters a token) as Ollama evaluates them: no more than the window it runs with. */
function promptEvalCount(body: Record<string, unknown>): number {
  const numCtx = (body.options as { num_ctx?: unknown } | undefined)?.num_ctx;
  const window = typeof numCtx === 'number' && numCtx > 0 ? numCtx : OLLAMA_DEFAULT_NUM_CTX;
  const tokens = Math.ceil(JSON.stringify([body.messages, body.tools ?? []]).length / 4);
  return Math.min(tokens, window);
}
