/**
 * The Chat Completions wire, loosely typed (compatible servers add fields the SDK's types do not
 * know): tole's messages and tools going out, usage, finish reasons and model lists coming back,
 * and the assembly of one attempt's streamed chunks into a result.
 */
import type OpenAI from 'openai';
import type { ChatMessage, CompletionEvent, CompletionResult, FinishReason, TokenUsage, ToolCallRequest, ToolDefinition } from './provider';

export interface ModelInfo {
  readonly id: string;
  /** The model's context window, when the server says. */
  readonly contextWindowTokens?: number;
}

export function toWireMessage(message: ChatMessage): OpenAI.Chat.ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      if (message.toolCalls === undefined || message.toolCalls.length === 0) {
        return { role: 'assistant', content: message.content };
      }
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      };
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

interface WireDelta {
  readonly content?: string | null;
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
  const cacheWriteTokens = count(wire.cache_creation_input_tokens) || count(wire.prompt_tokens_details?.cache_write_tokens);
  const inputTokens =
    wire.prompt_tokens !== undefined ? count(wire.prompt_tokens) : count(wire.input_tokens) + cachedInputTokens + cacheWriteTokens;
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
}

/** Folds chunks into text, reasoning, tool calls, finish reason and usage; returns the events. */
export class StreamAssembly {
  text = '';
  reasoning = '';
  finishReason: string | undefined;
  usage: TokenUsage | null = null;
  emittedOutput = false;
  private readonly slots: ToolSlot[] = [];
  /** Wire index -> slot index (a server that reuses index 0 for several calls gets new slots). */
  private readonly slotByWireIndex = new Map<number, number>();

  constructor(private readonly inventCallId: (index: number) => string) {}

  add(chunk: WireChunk): CompletionEvent[] {
    const events: CompletionEvent[] = [];
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = parseUsage(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      this.addDelta(choice.delta ?? {}, events);
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.finishReason = choice.finish_reason;
    }
    if (events.length > 0) this.emittedOutput = true;
    return events;
  }

  result(model: string): CompletionResult {
    const toolCalls: ToolCallRequest[] = this.slots.map((slot) => ({ id: slot.id, name: slot.name, arguments: slot.arguments }));
    return {
      model,
      text: this.text,
      reasoning: this.reasoning,
      toolCalls,
      finishReason: toFinishReason(this.finishReason ?? 'other', toolCalls.length > 0),
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
    (delta.tool_calls ?? []).forEach((fragment, position) => {
      const event = this.addToolFragment(fragment, position);
      if (event !== undefined) events.push(event);
    });
  }

  private addToolFragment(fragment: WireToolCallDelta, position: number): CompletionEvent | undefined {
    const wireIndex = typeof fragment.index === 'number' ? fragment.index : position;
    const serverId = typeof fragment.id === 'string' && fragment.id !== '' ? fragment.id : undefined;
    const name = fragment.function?.name ?? undefined;
    const argumentsDelta = fragment.function?.arguments ?? '';
    const known = this.slotByWireIndex.get(wireIndex);
    const startsNewCall =
      known === undefined || (serverId !== undefined && this.slots[known].idFromServer && this.slots[known].id !== serverId);
    if (startsNewCall) return this.openSlot(wireIndex, serverId, name ?? '', argumentsDelta);
    const slot = this.slots[known];
    const newName = slot.name === '' && name ? name : undefined;
    if (newName !== undefined) slot.name = newName;
    slot.arguments += argumentsDelta;
    if (newName === undefined && argumentsDelta === '') return undefined;
    return { type: 'tool_call', index: known, argumentsDelta, ...(newName === undefined ? {} : { name: newName }) };
  }

  private openSlot(wireIndex: number, serverId: string | undefined, name: string, argumentsDelta: string): CompletionEvent {
    const index = this.slots.length;
    const id = serverId ?? this.inventCallId(index);
    this.slots.push({ id, name, arguments: argumentsDelta, idFromServer: serverId !== undefined });
    this.slotByWireIndex.set(wireIndex, index);
    return { type: 'tool_call', index, id, argumentsDelta, ...(name === '' ? {} : { name }) };
  }
}
