/**
 * One attempt's Messages event stream folded into tole's events and result
 * (https://docs.anthropic.com/en/api/messages-streaming): `message_start` (a Message with empty
 * content, and the prompt's usage), per content block a `content_block_start`, its
 * `content_block_delta`s (`text_delta`, `input_json_delta`, `thinking_delta`, `signature_delta`)
 * and a `content_block_stop`; `message_delta` (stop reason, cumulative output usage), then
 * `message_stop`. `ping` and event types the API adds later are ignored, as the documents ask.
 */
import type {
  CompletionEvent,
  CompletionResult,
  FinishReason,
  ThinkingBlock,
  TokenUsage,
  ToolCallRequest,
} from '../provider';

export interface WireUsage {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
}

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; slot: number }
  | { kind: 'other' };

interface ToolSlot {
  readonly id: string;
  readonly name: string;
  arguments: string;
  readonly idFixed?: 'missing' | 'duplicate';
}

/** A stream event's data, loosely typed: fields are checked where they are read. */
export interface MessagesEvent {
  readonly type?: unknown;
  readonly index?: unknown;
  readonly message?: { readonly usage?: WireUsage | null; readonly model?: unknown } | null;
  readonly content_block?: Record<string, unknown> | null;
  readonly delta?: Record<string, unknown> | null;
  readonly usage?: WireUsage | null;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Anthropic's usage counts the uncached prompt (`input_tokens`), cache reads and cache writes
 * apart; tole's `inputTokens` counts them all (OpenAI's accounting), the cached ones kept apart.
 */
function toTokenUsage(wire: WireUsage): TokenUsage {
  const cachedInputTokens = count(wire.cache_read_input_tokens);
  const cacheWriteTokens = count(wire.cache_creation_input_tokens);
  return {
    inputTokens: count(wire.input_tokens) + cachedInputTokens + cacheWriteTokens,
    outputTokens: count(wire.output_tokens),
    cachedInputTokens,
    cacheWriteTokens,
  };
}

export function toFinishReason(stopReason: string | undefined, hasToolCalls: boolean): FinishReason {
  switch (stopReason) {
    // A server that ends the message without a message_delta: the calls, or the text, are the answer.
    case undefined:
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

export class MessagesAssembly {
  stopReason: string | undefined;
  sawStop = false;
  emittedOutput = false;
  private readonly blocks = new Map<number, Block>();
  private readonly order: number[] = [];
  private readonly slots: ToolSlot[] = [];
  private wireUsage: WireUsage = {};
  private sawUsage = false;

  constructor(private readonly inventCallId: (index: number) => string) {}

  get usage(): TokenUsage | null {
    return this.sawUsage ? toTokenUsage(this.wireUsage) : null;
  }

  /** Whether anything of an answer arrived: text or a tool call. */
  get hasAnswer(): boolean {
    return this.slots.length > 0 || [...this.blocks.values()].some((b) => b.kind === 'text' && b.text !== '');
  }

  add(event: MessagesEvent): CompletionEvent[] {
    const events: CompletionEvent[] = [];
    switch (event.type) {
      case 'message_start':
        this.addUsage(event.message?.usage);
        break;
      case 'content_block_start':
        this.start(event, events);
        break;
      case 'content_block_delta':
        this.delta(event, events);
        break;
      case 'message_delta':
        if (typeof event.delta?.['stop_reason'] === 'string') this.stopReason = event.delta['stop_reason'];
        this.addUsage(event.usage);
        break;
      case 'message_stop':
        this.sawStop = true;
        break;
      default:
        // content_block_stop, ping, and event types added later: nothing to fold.
        break;
    }
    if (events.length > 0) this.emittedOutput = true;
    return events;
  }

  result(model: string): CompletionResult {
    let answer = '';
    const thinking: ThinkingBlock[] = [];
    let reasoning = '';
    for (const index of this.order) {
      const block = this.blocks.get(index)!;
      if (block.kind === 'text') answer += block.text;
      if (block.kind === 'thinking') {
        thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
        reasoning += block.thinking;
      }
      if (block.kind === 'redacted') thinking.push({ type: 'redacted', data: block.data });
    }
    const toolCalls: ToolCallRequest[] = this.slots.map((slot) => ({
      id: slot.id,
      name: slot.name,
      // A call with no arguments streams none: its input is the empty object.
      arguments: slot.arguments === '' ? '{}' : slot.arguments,
      ...(slot.idFixed === undefined ? {} : { idFixed: slot.idFixed }),
    }));
    return {
      model,
      text: this.stopReason === 'refusal' ? '' : answer,
      reasoning,
      ...(thinking.length > 0 ? { thinking } : {}),
      ...(this.stopReason === 'refusal' ? { refusal: answer || 'the model declined to answer' } : {}),
      toolCalls,
      finishReason: toFinishReason(this.stopReason, toolCalls.length > 0),
      usage: this.usage,
    };
  }

  /** `message_start` carries the prompt's usage, `message_delta` the output so far (both cumulative). */
  private addUsage(usage: WireUsage | null | undefined): void {
    if (usage === null || usage === undefined || typeof usage !== 'object') return;
    this.sawUsage = true;
    const merged: Record<string, unknown> = { ...this.wireUsage };
    for (const [key, value] of Object.entries(usage)) if (typeof value === 'number') merged[key] = value;
    this.wireUsage = merged as WireUsage;
  }

  private start(event: MessagesEvent, events: CompletionEvent[]): void {
    const index = typeof event.index === 'number' ? event.index : this.order.length;
    const block = event.content_block ?? {};
    let folded: Block;
    switch (block['type']) {
      case 'text':
        folded = { kind: 'text', text: '' };
        this.blocks.set(index, folded);
        this.order.push(index);
        this.addText(folded, text(block['text']), events);
        return;
      case 'thinking':
        folded = { kind: 'thinking', thinking: '', signature: text(block['signature']) };
        this.blocks.set(index, folded);
        this.order.push(index);
        this.addThinking(folded, text(block['thinking']), events);
        return;
      case 'redacted_thinking':
        folded = { kind: 'redacted', data: text(block['data']) };
        break;
      case 'tool_use':
        folded = { kind: 'tool', slot: this.openSlot(text(block['id']), text(block['name']), events) };
        break;
      default:
        folded = { kind: 'other' };
    }
    this.blocks.set(index, folded);
    this.order.push(index);
  }

  private delta(event: MessagesEvent, events: CompletionEvent[]): void {
    const block = typeof event.index === 'number' ? this.blocks.get(event.index) : undefined;
    const delta = event.delta ?? {};
    if (block === undefined) return;
    switch (delta['type']) {
      case 'text_delta':
        if (block.kind === 'text') this.addText(block, text(delta['text']), events);
        break;
      case 'thinking_delta':
        if (block.kind === 'thinking') this.addThinking(block, text(delta['thinking']), events);
        break;
      case 'signature_delta':
        if (block.kind === 'thinking') block.signature += text(delta['signature']);
        break;
      case 'input_json_delta': {
        const partial = text(delta['partial_json']);
        if (block.kind !== 'tool' || partial === '') break;
        this.slots[block.slot]!.arguments += partial;
        events.push({ type: 'tool_call', index: block.slot, argumentsDelta: partial });
        break;
      }
      default:
        break;
    }
  }

  private addText(block: { text: string }, delta: string, events: CompletionEvent[]): void {
    if (delta === '') return;
    block.text += delta;
    events.push({ type: 'text', delta });
  }

  private addThinking(block: { thinking: string }, delta: string, events: CompletionEvent[]): void {
    if (delta === '') return;
    block.thinking += delta;
    events.push({ type: 'reasoning', delta });
  }

  /** A new call; its id is the server's unless it sent none or one this reply already has. */
  private openSlot(serverId: string, name: string, events: CompletionEvent[]): number {
    const index = this.slots.length;
    const taken = serverId !== '' && this.slots.some((slot) => slot.id === serverId);
    let id = serverId;
    if (serverId === '' || taken) {
      do id = this.inventCallId(index);
      while (this.slots.some((slot) => slot.id === id));
    }
    const idFixed = serverId === '' ? 'missing' : taken ? 'duplicate' : undefined;
    this.slots.push({ id, name, arguments: '', ...(idFixed === undefined ? {} : { idFixed }) });
    events.push({ type: 'tool_call', index, id, argumentsDelta: '', ...(name === '' ? {} : { name }) });
    return index;
  }
}
