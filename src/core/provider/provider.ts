/** The model-call boundary: one interface, whatever server stands behind it. */

export interface ToolCallRequest {
  /** The id the model gave the call (the provider invents one when the server sends none). */
  readonly id: string;
  readonly name: string;
  /** Raw JSON text of the arguments, exactly as the model produced it (may be invalid). */
  readonly arguments: string;
  /**
   * Why the recorded id is not the one the server sent: it sent none (or an empty one), or the
   * same id twice in one reply. Absent when the id is the server's own.
   */
  readonly idFixed?: 'missing' | 'duplicate';
  /** The server sent the call as a legacy `function_call`, not in `tool_calls`. */
  readonly legacy?: true;
  /**
   * An opaque token the server attached to the call and wants back with it in the history
   * (Gemini's `thoughtSignature`, which carries the model's reasoning across a function call).
   */
  readonly signature?: string;
}

/**
 * A block of the model's extended thinking as the server sent it (Anthropic), kept whole in the
 * session: the server checks the signature when the block is sent back with a tool round.
 * `redacted`: the server's encrypted thinking, sent back as it came.
 */
export type ThinkingBlock =
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'redacted'; readonly data: string };

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  /** `refusal`: the model declined (OpenAI's `refusal` field); its words are the assistant's answer. */
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ToolCallRequest[];
      readonly refusal?: string;
      /** The thinking that came before the answer, for a server that wants it back. */
      readonly thinking?: readonly ThinkingBlock[];
    }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: Record<string, unknown>;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteTokens: number;
  /** Cost the server reported for this attempt (OpenRouter does), in micro-dollars. */
  readonly serverCostUsdMicros?: number;
}

export type AttemptOutcome =
  | 'ok'
  | 'rate_limit'
  | 'transient'
  | 'stream_dropped'
  | 'context_overflow'
  | 'tool_unsupported'
  | 'auth'
  | 'bad_request'
  | 'not_found'
  | 'aborted';

/** One provider attempt, failed ones too: a row of the usage ledger. */
export interface AttemptReport {
  readonly model: string;
  readonly attempt: number;
  readonly outcome: AttemptOutcome;
  readonly usage: TokenUsage | null;
  readonly latencyMs: number;
  readonly error?: string;
  /** How long the retry waits before the next attempt, when there is one. */
  readonly retryInMs?: number;
}

export type CompletionEvent =
  | { readonly type: 'text'; readonly delta: string }
  | { readonly type: 'reasoning'; readonly delta: string }
  /** The model declines to answer: its explanation, shown and recorded apart from the text. */
  | { readonly type: 'refusal'; readonly delta: string }
  /**
   * A stream opened: from now on, silence longer than `idleLimitMs` (before the first token,
   * `firstTokenLimitMs`) ends the attempt as a dropped stream. Hosts use it to show the wait.
   */
  | { readonly type: 'stream-open'; readonly firstTokenLimitMs: number; readonly idleLimitMs: number }
  | {
      readonly type: 'tool_call';
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly argumentsDelta: string;
    }
  /** The attempt's partial output is void: a retry starts from scratch. */
  | { readonly type: 'discard' }
  | { readonly type: 'attempt'; readonly report: AttemptReport };

/** Sampling settings a request may carry (config `generation`, or an agent profile's). */
export interface GenerationSettings {
  readonly temperature?: number;
  readonly topP?: number;
  readonly maxOutputTokens?: number;
  /** For models that reason (`reasoning_effort`). */
  readonly reasoningEffort?: ReasoningEffort;
  /** Extended thinking's budget (Anthropic `thinking.budget_tokens`); over `reasoningEffort`. */
  readonly thinkingBudgetTokens?: number;
  readonly seed?: number;
  readonly stop?: readonly string[];
}

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export interface CompletionRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly signal: AbortSignal;
  /** Over `generation.maxOutputTokens` (a compaction summary asks for its own length). */
  readonly maxOutputTokens?: number;
  readonly generation?: GenerationSettings;
  /**
   * The model's context window as tole knows it (the config's, or learned from the server), when
   * it does: a kind whose server must be told the window (Ollama's `num_ctx`) sends it.
   */
  readonly contextWindowTokens?: number;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface CompletionResult {
  readonly model: string;
  readonly text: string;
  readonly reasoning: string;
  /** The thinking blocks, signed, when the server sends them (Anthropic). */
  readonly thinking?: readonly ThinkingBlock[];
  /** The model's refusal, when it declined (OpenAI sends it in `refusal`, with no content). */
  readonly refusal?: string;
  readonly toolCalls: readonly ToolCallRequest[];
  readonly finishReason: FinishReason;
  readonly usage: TokenUsage | null;
}

/** A model a server lists. */
export interface ModelInfo {
  readonly id: string;
  /** The model's context window, when the server says. */
  readonly contextWindowTokens?: number;
}

export interface Provider {
  readonly name: string;
  /**
   * Streams one completion, retrying as its policy says. Every attempt, failed or not, is
   * reported through `onEvent` as an `attempt` event before the next one starts.
   * Throws `ProviderError` when no attempt succeeds.
   */
  complete(request: CompletionRequest, onEvent: (event: CompletionEvent) => void): Promise<CompletionResult>;
  /**
   * A call is likely soon (the user is writing a prompt): get ready for it, e.g. load the client.
   * Sends nothing and never throws; a failure shows at the call.
   */
  prepare?(): void;
}
