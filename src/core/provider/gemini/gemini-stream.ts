/**
 * One attempt's `streamGenerateContent?alt=sse` stream folded into tole's events and a result.
 * Every `data:` event is a whole GenerateContentResponse (Gemini API reference, "Generating
 * content", https://ai.google.dev/api/generate-content#generatecontentresponse): the first
 * candidate's `content.parts` carry text (`thought: true` marks a thought summary), and whole
 * `functionCall`s; `finishReason` comes with the last; `usageMetadata` (promptTokenCount with the
 * cached part in `cachedContentTokenCount`, candidatesTokenCount, thoughtsTokenCount) with the
 * last as well. There is no end mark: the stream ends when the answer is done. An event with
 * `error` is the server failing mid-answer; a prompt refused outright has no candidates and says
 * why in `promptFeedback.blockReason`.
 */
import type { CompletionEvent, CompletionResult, FinishReason, TokenUsage, ToolCallRequest } from '../provider';
import { INVENTED_ID_PREFIX } from './gemini-wire';

export interface GeminiChunk {
  readonly candidates?: readonly GeminiCandidate[] | null;
  readonly usageMetadata?: GeminiUsage | null;
  readonly promptFeedback?: { readonly blockReason?: unknown; readonly blockReasonMessage?: unknown } | null;
  readonly error?: unknown;
}

interface GeminiCandidate {
  readonly index?: number;
  readonly content?: { readonly parts?: readonly unknown[] | null } | null;
  readonly finishReason?: unknown;
  readonly finishMessage?: unknown;
}

interface GeminiUsage {
  readonly promptTokenCount?: unknown;
  readonly candidatesTokenCount?: unknown;
  readonly cachedContentTokenCount?: unknown;
  readonly thoughtsTokenCount?: unknown;
  readonly toolUsePromptTokenCount?: unknown;
}

/** The server's own failure inside a started stream (an event with `error`). */
export class GeminiStreamError extends Error {
  constructor(
    readonly body: unknown,
    readonly code: number | undefined,
  ) {
    super(streamErrorText(body));
    this.name = 'GeminiStreamError';
  }
}

export class GeminiAssembly {
  text = '';
  reasoning = '';
  /** The candidate's `finishReason` as sent (STOP, MAX_TOKENS, SAFETY, ...). */
  finishReason: string | undefined;
  /** Why the prompt was refused, when it was (no candidates at all). */
  blockReason: string | undefined;
  usage: TokenUsage | null = null;
  emittedOutput = false;
  private readonly calls: ToolCallRequest[] = [];

  constructor(private readonly inventCallId: (index: number) => string) {}

  add(chunk: GeminiChunk): CompletionEvent[] {
    if (typeof chunk !== 'object' || chunk === null) return [];
    if (chunk.error !== undefined && chunk.error !== null) {
      const code = (chunk.error as { code?: unknown }).code;
      throw new GeminiStreamError(chunk.error, typeof code === 'number' ? code : undefined);
    }
    if (chunk.usageMetadata) this.usage = parseGeminiUsage(chunk.usageMetadata);
    const block = chunk.promptFeedback?.blockReason;
    if (typeof block === 'string' && block !== '') this.blockReason = block;
    const events: CompletionEvent[] = [];
    const candidate = (chunk.candidates ?? []).find((c) => (c?.index ?? 0) === 0);
    if (candidate !== undefined) {
      for (const part of candidate.content?.parts ?? []) this.addPart(part, events);
      if (typeof candidate.finishReason === 'string' && candidate.finishReason !== '')
        this.finishReason = candidate.finishReason;
    }
    if (events.length > 0) this.emittedOutput = true;
    return events;
  }

  get hasAnswer(): boolean {
    return this.text !== '' || this.calls.length > 0;
  }

  result(model: string): CompletionResult {
    const refused = this.blockReason !== undefined && !this.hasAnswer;
    return {
      model,
      text: this.text,
      reasoning: this.reasoning,
      ...(refused ? { refusal: `Gemini refused the prompt (${this.blockReason})` } : {}),
      toolCalls: [...this.calls],
      finishReason: refused ? 'content_filter' : finishReason(this.finishReason, this.calls.length > 0),
      usage: this.usage,
    };
  }

  private addPart(part: unknown, events: CompletionEvent[]): void {
    if (typeof part !== 'object' || part === null) return;
    const { text, thought, functionCall } = part as { text?: unknown; thought?: unknown; functionCall?: unknown };
    if (typeof text === 'string' && text !== '') {
      if (thought === true) {
        this.reasoning += text;
        events.push({ type: 'reasoning', delta: text });
      } else {
        this.text += text;
        events.push({ type: 'text', delta: text });
      }
    }
    if (typeof functionCall === 'object' && functionCall !== null) {
      const signature = (part as { thoughtSignature?: unknown }).thoughtSignature;
      events.push(
        this.addCall(functionCall, typeof signature === 'string' && signature !== '' ? signature : undefined),
      );
    }
  }

  private addCall(wire: object, signature: string | undefined): CompletionEvent {
    const { name, args, id } = wire as { name?: unknown; args?: unknown; id?: unknown };
    const callName = typeof name === 'string' ? name : '';
    const argumentsText = JSON.stringify(args ?? {});
    const index = this.calls.length;
    const ownId = typeof id === 'string' && id !== '' ? id : undefined;
    const taken = ownId !== undefined && this.calls.some((call) => call.id === ownId);
    const callId = ownId !== undefined && !taken ? ownId : this.freshId(index);
    const idFixed = ownId === undefined ? ('missing' as const) : taken ? ('duplicate' as const) : undefined;
    this.calls.push({
      id: callId,
      name: callName,
      arguments: argumentsText,
      ...(idFixed === undefined ? {} : { idFixed }),
      ...(signature === undefined ? {} : { signature }),
    });
    return {
      type: 'tool_call',
      index,
      id: callId,
      argumentsDelta: argumentsText,
      ...(callName === '' ? {} : { name: callName }),
    };
  }

  /** An id of tole's making carries the prefix that keeps it from being sent back. */
  private freshId(index: number): string {
    for (;;) {
      const id = `${INVENTED_ID_PREFIX}${this.inventCallId(index)}`;
      if (!this.calls.some((call) => call.id === id)) return id;
    }
  }
}

/**
 * Gemini's counts as tole's: `promptTokenCount` is the whole prompt, the cached part included
 * (tole's `inputTokens` counts the same way); thinking is billed as output, so the thoughts count
 * joins the candidates'.
 */
function parseGeminiUsage(wire: GeminiUsage): TokenUsage {
  return {
    inputTokens: count(wire.promptTokenCount) + count(wire.toolUsePromptTokenCount),
    outputTokens: count(wire.candidatesTokenCount) + count(wire.thoughtsTokenCount),
    cachedInputTokens: count(wire.cachedContentTokenCount),
    cacheWriteTokens: 0,
  };
}

/**
 * Finish reasons (FinishReason in the reference): STOP ends an answer, and a reply with calls
 * (Gemini says STOP for those too); MAX_TOKENS is the output limit; SAFETY, RECITATION,
 * BLOCKLIST, PROHIBITED_CONTENT, SPII and IMAGE_SAFETY are filters; the rest (OTHER,
 * MALFORMED_FUNCTION_CALL, LANGUAGE, ...) end it for another reason.
 */
function finishReason(wire: string | undefined, hasCalls: boolean): FinishReason {
  if (wire === 'MAX_TOKENS') return 'length';
  if (hasCalls) return 'tool_calls';
  if (wire === undefined || wire === 'STOP') return 'stop';
  if (/^(SAFETY|RECITATION|BLOCKLIST|PROHIBITED_CONTENT|SPII|IMAGE_SAFETY)$/.test(wire)) return 'content_filter';
  return 'other';
}

function streamErrorText(body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  const status = (body as { status?: unknown } | null)?.status;
  const text = typeof message === 'string' ? message : JSON.stringify(body);
  return typeof status === 'string' ? `${status}: ${text}` : text;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
