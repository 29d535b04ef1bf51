/**
 * The Chat Completions wire, loosely typed (compatible servers add fields the SDK's types do not
 * know): tole's messages and tools going out, usage, finish reasons and model lists coming back,
 * and the assembly of one attempt's streamed chunks into a result.
 */
import type OpenAI from 'openai';
import type {
  ChatMessage,
  CompletionEvent,
  CompletionResult,
  FinishReason,
  ModelInfo,
  TokenUsage,
  ToolCallRequest,
  ToolDefinition,
} from '../provider';

export function toWireMessage(message: ChatMessage): OpenAI.Chat.ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      // A refusal goes back as the assistant's words: every server reads content, few know `refusal`.
      const content = message.content === '' && message.refusal ? message.refusal : message.content;
      if (message.toolCalls === undefined || message.toolCalls.length === 0) {
        return { role: 'assistant', content };
      }
      return {
        role: 'assistant',
        content: content === '' ? null : content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

export function toWireTool(tool: ToolDefinition): OpenAI.Chat.ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

export function toFinishReason(wire: string, hasToolCalls: boolean): FinishReason {
  switch (wire) {
    case 'stop':
    case 'eos':
    case 'end_turn':
      // Some servers say "stop" after tool calls; the calls are what the turn loop must act on.
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'tool_calls':
    case 'function_call':
    case 'tool_use':
      return 'tool_calls';
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

interface WireToolCallDelta {
  readonly index?: number;
  readonly id?: string | null;
  readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
}

interface WireFunctionCall {
  readonly name?: string | null;
  readonly arguments?: string | null;
}

interface WireDelta {
  readonly content?: string | null;
  /** OpenAI: the model declined; content stays null. */
  readonly refusal?: string | null;
  /** The legacy (pre-`tools`) form of one call, still streamed by some servers. */
  readonly function_call?: WireFunctionCall | null;
  readonly reasoning_content?: string | null;
  readonly reasoning?: string | null;
  readonly tool_calls?: readonly WireToolCallDelta[] | null;
}

interface WireChoice {
  readonly index?: number;
  readonly delta?: WireDelta | null;
  readonly finish_reason?: string | null;
}

export interface WireUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number; readonly cache_write_tokens?: number } | null;
  readonly cache_read_input_tokens?: number;
  readonly cache_creation_input_tokens?: number;
  /** OpenRouter: what the call cost, in dollars. */
  readonly cost?: number;
}

export interface WireChunk {
  readonly choices?: readonly WireChoice[] | null;
  readonly usage?: WireUsage | null;
}

export interface WireModel {
  readonly id: string;
  readonly context_length?: unknown;
  readonly max_model_len?: unknown;
  readonly context_window?: unknown;
  readonly max_context_length?: unknown;
  readonly top_provider?: { readonly context_length?: unknown } | null;
  readonly meta?: { readonly n_ctx?: unknown; readonly n_ctx_train?: unknown } | null;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/**
 * Normalises usage so that `inputTokens` counts every prompt token, cached and cache-written ones
 * included (OpenAI's accounting). Anthropic-style usage without `prompt_tokens` counts them apart.
 */
export function parseUsage(wire: WireUsage | null | undefined): TokenUsage | null {
  if (wire === null || wire === undefined || typeof wire !== 'object') return null;
  const cachedInputTokens = count(wire.prompt_tokens_details?.cached_tokens) || count(wire.cache_read_input_tokens);
  const cacheWriteTokens =
    count(wire.cache_creation_input_tokens) || count(wire.prompt_tokens_details?.cache_write_tokens);
  const inputTokens =
    wire.prompt_tokens !== undefined
      ? count(wire.prompt_tokens)
      : count(wire.input_tokens) + cachedInputTokens + cacheWriteTokens;
  const outputTokens = count(wire.completion_tokens) || count(wire.output_tokens);
  const costUsd = wire.cost;
  return {
    inputTokens,
    outputTokens,
    cachedInputTokens,
    cacheWriteTokens,
    ...(typeof costUsd === 'number' && Number.isFinite(costUsd) && costUsd >= 0
      ? { serverCostUsdMicros: Math.round(costUsd * 1_000_000) }
      : {}),
  };
}

export function toModelInfo(entry: WireModel): ModelInfo {
  const contextWindowTokens =
    count(entry.context_length) ||
    count(entry.max_model_len) ||
    count(entry.context_window) ||
    count(entry.max_context_length) ||
    count(entry.top_provider?.context_length) ||
    count(entry.meta?.n_ctx) ||
    count(entry.meta?.n_ctx_train);
  return contextWindowTokens > 0 ? { id: String(entry.id), contextWindowTokens } : { id: String(entry.id) };
}

// ---- Assembling one attempt's stream. ----

interface ToolSlot {
  id: string;
  name: string;
  arguments: string;
  readonly idFromServer: boolean;
  readonly idFixed?: 'missing' | 'duplicate';
  readonly legacy?: true;
}

/** Folds chunks into text, reasoning, refusal, tool calls, finish reason and usage; returns the events. */
export class StreamAssembly {
  text = '';
  reasoning = '';
  refusal = '';
  finishReason: string | undefined;
  usage: TokenUsage | null = null;
  emittedOutput = false;
  private readonly slots: ToolSlot[] = [];
  /** Wire index -> slot index (a server that reuses index 0 for several calls gets new slots). */
  private readonly slotByWireIndex = new Map<number, number>();
  /** The slot of the legacy `function_call` (there is at most one per reply). */
  private legacySlot: number | undefined;

  constructor(private readonly inventCallId: (index: number) => string) {}

  add(chunk: WireChunk): CompletionEvent[] {
    const events: CompletionEvent[] = [];
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = parseUsage(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      this.addDelta(choice.delta ?? {}, events);
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '')
        this.finishReason = choice.finish_reason;
    }
    if (events.length > 0) this.emittedOutput = true;
    return events;
  }

  /** Whether anything of an answer arrived: text, a refusal or a tool call. */
  get hasAnswer(): boolean {
    return this.text !== '' || this.refusal !== '' || this.slots.length > 0;
  }

  /**
   * The reply. With no finish reason (a server that never sends one, when the stream still ended
   * with `[DONE]`), tool calls make it a tool-call reply and text alone a final answer.
   */
  result(model: string): CompletionResult {
    const toolCalls: ToolCallRequest[] = this.slots.map((slot) => ({
      id: slot.id,
      name: slot.name,
      arguments: slot.arguments,
      ...(slot.idFixed === undefined ? {} : { idFixed: slot.idFixed }),
      ...(slot.legacy ? { legacy: true as const } : {}),
    }));
    const finishReason =
      this.finishReason === undefined
        ? toolCalls.length > 0
          ? 'tool_calls'
          : 'stop'
        : toFinishReason(this.finishReason, toolCalls.length > 0);
    return {
      model,
      text: this.text,
      reasoning: this.reasoning,
      ...(this.refusal === '' ? {} : { refusal: this.refusal }),
      toolCalls,
      finishReason,
      usage: this.usage,
    };
  }

  private addDelta(delta: WireDelta, events: CompletionEvent[]): void {
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string' && reasoning !== '') {
      this.reasoning += reasoning;
      events.push({ type: 'reasoning', delta: reasoning });
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.text += delta.content;
      events.push({ type: 'text', delta: delta.content });
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      this.refusal += delta.refusal;
      events.push({ type: 'refusal', delta: delta.refusal });
    }
    (delta.tool_calls ?? []).forEach((fragment, position) => {
      const event = this.addToolFragment(fragment, position);
      if (event !== undefined) events.push(event);
    });
    if (delta.function_call !== undefined && delta.function_call !== null) {
      const event = this.addLegacyFragment(delta.function_call);
      if (event !== undefined) events.push(event);
    }
  }

  private addToolFragment(fragment: WireToolCallDelta, position: number): CompletionEvent | undefined {
    const wireIndex = typeof fragment.index === 'number' ? fragment.index : position;
    const serverId = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : undefined;
    const name = fragment.function?.name ?? undefined;
    const argumentsDelta = fragment.function?.arguments ?? '';
    const known = this.slotByWireIndex.get(wireIndex);
    const startsNewCall =
      known === undefined ||
      (serverId !== undefined && this.slots[known].idFromServer && this.slots[known].id !== serverId);
    if (startsNewCall) {
      const index = this.openSlot(serverId, name ?? '', argumentsDelta, false);
      this.slotByWireIndex.set(wireIndex, index);
      return this.openedEvent(index);
    }
    return this.extendSlot(known, name, argumentsDelta);
  }

  /** `function_call` carries one call, named in its first fragment, with no id: tole makes one up. */
  private addLegacyFragment(fragment: WireFunctionCall): CompletionEvent | undefined {
    const name = typeof fragment.name === 'string' ? fragment.name : undefined;
    const argumentsDelta = typeof fragment.arguments === 'string' ? fragment.arguments : '';
    if (this.legacySlot === undefined) {
      this.legacySlot = this.openSlot(undefined, name ?? '', argumentsDelta, true);
      return this.openedEvent(this.legacySlot);
    }
    return this.extendSlot(this.legacySlot, name, argumentsDelta);
  }

  private extendSlot(index: number, name: string | undefined, argumentsDelta: string): CompletionEvent | undefined {
    const slot = this.slots[index];
    const newName = slot.name === '' && name ? name : undefined;
    if (newName !== undefined) slot.name = newName;
    slot.arguments += argumentsDelta;
    if (newName === undefined && argumentsDelta === '') return undefined;
    return { type: 'tool_call', index, argumentsDelta, ...(newName === undefined ? {} : { name: newName }) };
  }

  /**
   * A new call. Its id is the server's unless it sent none or one that an earlier call of this
   * reply already has: results are matched to calls by id, so every id must be unique.
   */
  private openSlot(serverId: string | undefined, name: string, argumentsDelta: string, legacy: boolean): number {
    const index = this.slots.length;
    const taken = serverId !== undefined && this.slots.some((slot) => slot.id === serverId);
    const id = serverId !== undefined && !taken ? serverId : this.uniqueInventedId(index);
    const idFixed = serverId === undefined ? 'missing' : taken ? 'duplicate' : undefined;
    this.slots.push({
      id,
      name,
      arguments: argumentsDelta,
      idFromServer: serverId !== undefined,
      ...(idFixed === undefined ? {} : { idFixed }),
      ...(legacy ? { legacy: true as const } : {}),
    });
    return index;
  }

  private uniqueInventedId(index: number): string {
    for (;;) {
      const id = this.inventCallId(index);
      if (!this.slots.some((slot) => slot.id === id)) return id;
    }
  }

  private openedEvent(index: number): CompletionEvent {
    const slot = this.slots[index];
    return {
      type: 'tool_call',
      index,
      id: slot.id,
      argumentsDelta: slot.arguments,
      ...(slot.name === '' ? {} : { name: slot.name }),
    };
  }
}

// ---- A whole (not streamed) completion. ----

interface WireMessage {
  readonly content?: unknown;
  readonly refusal?: unknown;
  readonly reasoning_content?: unknown;
  readonly reasoning?: unknown;
  readonly tool_calls?: unknown;
  readonly function_call?: unknown;
}

/**
 * A `chat.completion` object, as a server sends it when it answers a streaming request with one
 * JSON body: folded through the same assembly as a stream, so the result and its events are the
 * ones a stream of the same reply gives. Undefined when the body is not a completion.
 */
export function assembleCompletionBody(body: unknown, assembly: StreamAssembly): CompletionEvent[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const choices = (body as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return undefined;
  const first = choices.find((c: { index?: unknown }) => (c?.index ?? 0) === 0) as
    | { message?: WireMessage; finish_reason?: unknown }
    | undefined;
  if (first === undefined || typeof first.message !== 'object' || first.message === null) return undefined;
  const message = first.message;
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as WireToolCallDelta[]) : [];
  const delta: WireDelta = {
    content: text(message.content),
    refusal: text(message.refusal),
    reasoning_content: text(message.reasoning_content) ?? text(message.reasoning),
    tool_calls: calls.map((call, index) => ({ ...call, index })),
    function_call:
      typeof message.function_call === 'object' ? (message.function_call as WireFunctionCall | null) : null,
  };
  return assembly.add({
    choices: [{ index: 0, delta, finish_reason: typeof first.finish_reason === 'string' ? first.finish_reason : null }],
    usage: (body as { usage?: WireUsage | null }).usage ?? null,
  });
}
