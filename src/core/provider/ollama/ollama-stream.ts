/**
 * One attempt's `/api/chat` stream, folded line by line into tole's events and a result. A line
 * is one JSON object (docs/api.md, "Generate a chat completion", streaming response): text in
 * `message.content`, reasoning in `message.thinking`, whole tool calls in `message.tool_calls`,
 * and `done: true` on the last, with `done_reason` and the token counts. A line with `error` is
 * the server failing mid-answer.
 */
import type { CompletionEvent, CompletionResult, FinishReason, TokenUsage, ToolCallRequest } from '../provider';

export interface OllamaLine {
  readonly message?: {
    readonly content?: unknown;
    readonly thinking?: unknown;
    readonly tool_calls?: unknown;
  } | null;
  readonly done?: unknown;
  readonly done_reason?: unknown;
  readonly prompt_eval_count?: unknown;
  readonly eval_count?: unknown;
  readonly error?: unknown;
}

/** The server's own failure inside a started stream (an `error` line). */
export class OllamaStreamError extends Error {
  constructor(readonly serverMessage: string) {
    super(serverMessage);
    this.name = 'OllamaStreamError';
  }
}

export class OllamaAssembly {
  text = '';
  reasoning = '';
  done = false;
  doneReason: string | undefined;
  usage: TokenUsage | null = null;
  emittedOutput = false;
  private readonly calls: ToolCallRequest[] = [];

  constructor(private readonly inventCallId: (index: number) => string) {}

  /** Folds one parsed line; returns its events. Throws `OllamaStreamError` for an `error` line. */
  add(line: OllamaLine): CompletionEvent[] {
    if (typeof line !== 'object' || line === null) return [];
    if (line.error !== undefined && line.error !== null) throw new OllamaStreamError(errorText(line.error));
    const events: CompletionEvent[] = [];
    const message = line.message ?? {};
    if (typeof message.thinking === 'string' && message.thinking !== '') {
      this.reasoning += message.thinking;
      events.push({ type: 'reasoning', delta: message.thinking });
    }
    if (typeof message.content === 'string' && message.content !== '') {
      this.text += message.content;
      events.push({ type: 'text', delta: message.content });
    }
    if (Array.isArray(message.tool_calls)) {
      for (const wire of message.tool_calls) events.push(this.addCall(wire));
    }
    if (line.done === true) this.finish(line);
    if (events.length > 0) this.emittedOutput = true;
    return events;
  }

  result(model: string): CompletionResult {
    return {
      model,
      text: this.text,
      reasoning: this.reasoning,
      toolCalls: [...this.calls],
      finishReason: finishReason(this.doneReason, this.calls.length > 0),
      usage: this.usage,
    };
  }

  private finish(line: OllamaLine): void {
    this.done = true;
    this.doneReason = typeof line.done_reason === 'string' ? line.done_reason : undefined;
    this.usage = {
      inputTokens: count(line.prompt_eval_count),
      outputTokens: count(line.eval_count),
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
    };
  }

  /** A whole call: one event opens it with all of its arguments. */
  private addCall(wire: unknown): CompletionEvent {
    const fn = (wire as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
    const name = typeof fn?.name === 'string' ? fn.name : '';
    const args = fn?.arguments;
    // Ollama sends an object; a string (some model templates) is passed on as the model wrote it.
    const argumentsText = typeof args === 'string' ? args : JSON.stringify(args ?? {});
    const serverId = (wire as { id?: unknown } | null)?.id;
    const index = this.calls.length;
    const ownId = typeof serverId === 'string' && serverId !== '' ? serverId : undefined;
    const taken = ownId !== undefined && this.calls.some((call) => call.id === ownId);
    const id = ownId !== undefined && !taken ? ownId : this.freshId(index);
    const idFixed = ownId === undefined ? ('missing' as const) : taken ? ('duplicate' as const) : undefined;
    this.calls.push({ id, name, arguments: argumentsText, ...(idFixed === undefined ? {} : { idFixed }) });
    return { type: 'tool_call', index, id, argumentsDelta: argumentsText, ...(name === '' ? {} : { name }) };
  }

  private freshId(index: number): string {
    for (;;) {
      const id = this.inventCallId(index);
      if (!this.calls.some((call) => call.id === id)) return id;
    }
  }
}

/** `stop` (or none) with calls is a tool-call reply; `length` is the output limit; `load`/`unload` end no answer. */
function finishReason(doneReason: string | undefined, hasCalls: boolean): FinishReason {
  if (doneReason === 'length') return 'length';
  if (hasCalls) return 'tool_calls';
  return doneReason === undefined || doneReason === 'stop' ? 'stop' : 'other';
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(error);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
