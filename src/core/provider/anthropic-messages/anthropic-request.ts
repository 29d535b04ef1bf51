/**
 * tole's request as an Anthropic Messages body (https://docs.anthropic.com/en/api/messages):
 * the system prompt as text blocks, tools with `input_schema`, tool calls as `tool_use` blocks
 * and their results as `tool_result` blocks in the user turn that follows (consecutive turns of
 * one role are joined: the API wants user and assistant in turn), signed thinking blocks sent
 * back ahead of the answer they led to, and prompt-cache breakpoints
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching): on the tools, on the
 * system prompt, on the newest message (the prefix the next call will repeat) and on the end of
 * the previous call's prompt (so this call reads what that one wrote). The API allows four.
 */
import { ProviderError } from '../errors';
import type { ChatMessage, CompletionRequest, GenerationSettings, ThinkingBlock, ToolDefinition } from '../provider';

const MAX_CACHE_BREAKPOINTS = 4;
/** max_tokens is required by the API; this when nothing sets it. */
const DEFAULT_MAX_TOKENS = 8192;
/** Thinking budgets for the effort names tole shares with Chat Completions (the API's minimum is 1024). */
const EFFORT_BUDGET_TOKENS = { minimal: 1024, low: 4096, medium: 10_000, high: 32_000 } as const;

type CacheControl = { readonly type: 'ephemeral' };
const EPHEMERAL: CacheControl = { type: 'ephemeral' };

type WireBlock =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: CacheControl }
  | { type: 'tool_result'; tool_use_id: string; content: string; cache_control?: CacheControl };

export interface WireMessage {
  readonly role: 'user' | 'assistant';
  readonly content: WireBlock[];
}

interface WireTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

export interface MessagesBody {
  readonly model: string;
  readonly max_tokens: number;
  readonly stream: true;
  readonly system?: WireBlock[];
  readonly messages: WireMessage[];
  readonly tools?: WireTool[];
  readonly thinking?: { readonly type: 'enabled'; readonly budget_tokens: number };
  readonly temperature?: number;
  readonly top_p?: number;
  readonly stop_sequences?: string[];
}

export function messagesBody(request: CompletionRequest, model: string): MessagesBody {
  const system = request.messages
    .filter((m): m is Extract<ChatMessage, { role: 'system' }> => m.role === 'system' && m.content !== '')
    .map((m): WireBlock => ({ type: 'text', text: m.content }));
  const messages = toWireMessages(request.messages);
  const tools = request.tools.map(toWireTool);
  placeBreakpoints(tools, system, messages);
  const settings = request.generation;
  // A tool round the model began without thinking (another provider's answer, or thinking turned
  // on since) cannot be continued with it: the API wants the round's assistant turn to open with
  // a thinking block. Thinking resumes at the next prompt.
  const budget = openRoundWithoutThinking(messages) ? undefined : thinkingBudget(settings);
  const maxTokens = request.maxOutputTokens ?? settings?.maxOutputTokens ?? defaultMaxTokens(budget);
  if (budget !== undefined) checkThinkingSettings(budget, maxTokens, settings);
  return {
    model,
    max_tokens: maxTokens,
    stream: true,
    ...(system.length > 0 ? { system } : {}),
    messages,
    ...(tools.length > 0 ? { tools } : {}),
    ...(budget === undefined ? {} : { thinking: { type: 'enabled', budget_tokens: budget } }),
    ...(settings?.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings?.topP === undefined ? {} : { top_p: settings.topP }),
    ...(settings?.stop === undefined ? {} : { stop_sequences: [...settings.stop] }),
  };
}

/** The budget from `thinkingBudgetTokens`, else from `reasoningEffort`; none for `none` or unset. */
export function thinkingBudget(settings: GenerationSettings | undefined): number | undefined {
  if (settings?.thinkingBudgetTokens !== undefined) return settings.thinkingBudgetTokens;
  const effort = settings?.reasoningEffort;
  return effort === undefined || effort === 'none' ? undefined : EFFORT_BUDGET_TOKENS[effort];
}

/** What the API refuses beside extended thinking, said before anything is sent. */
function checkThinkingSettings(budget: number, maxTokens: number, settings: GenerationSettings | undefined): void {
  const refuse = (message: string, hint: string): never => {
    throw new ProviderError({ kind: 'bad_request', message, hint });
  };
  if (budget >= maxTokens)
    refuse(
      `the thinking budget (${budget} tokens) is not below the output limit (${maxTokens} tokens)`,
      'raise generation.maxOutputTokens above generation.thinkingBudgetTokens, or lower the budget',
    );
  if (settings?.temperature !== undefined && settings.temperature !== 1)
    refuse(
      `Anthropic's extended thinking takes no temperature but 1 (generation.temperature is ${settings.temperature})`,
      'remove "temperature" from "generation" (or the agent profile), or turn thinking off (reasoningEffort "none", no thinkingBudgetTokens)',
    );
  if (settings?.topP !== undefined && settings.topP < 0.95)
    refuse(
      `Anthropic's extended thinking takes a topP of 0.95 to 1 (generation.topP is ${settings.topP})`,
      'remove "topP" from "generation" (or the agent profile), or turn thinking off',
    );
}

/** The conversation ends in a tool round whose assistant turn has no thinking. */
function openRoundWithoutThinking(messages: readonly WireMessage[]): boolean {
  const last = messages[messages.length - 1];
  const assistant = messages[messages.length - 2];
  if (last?.role !== 'user' || assistant?.role !== 'assistant') return false;
  if (!last.content.some((block) => block.type === 'tool_result')) return false;
  const first = assistant.content[0]?.type;
  return first !== 'thinking' && first !== 'redacted_thinking';
}

function defaultMaxTokens(budget: number | undefined): number {
  return budget === undefined ? DEFAULT_MAX_TOKENS : Math.max(DEFAULT_MAX_TOKENS, budget + DEFAULT_MAX_TOKENS);
}

function toWireTool(tool: ToolDefinition): WireTool {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters };
}

/** The conversation without its system prompt, each run of one role joined into one message. */
export function toWireMessages(messages: readonly ChatMessage[]): WireMessage[] {
  const wire: WireMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = toBlocks(message);
    const last = wire[wire.length - 1];
    if (last !== undefined && last.role === role) {
      // A tool result must come first in its user turn: text joins after the results.
      last.content.push(...blocks);
    } else {
      wire.push({ role, content: blocks });
    }
  }
  for (const message of wire) {
    // The API refuses an empty turn; an assistant turn that said nothing says so.
    if (message.content.length === 0) message.content.push({ type: 'text', text: '(no answer)' });
  }
  return wire;
}

function toBlocks(message: Exclude<ChatMessage, { role: 'system' }>): WireBlock[] {
  switch (message.role) {
    case 'user':
      return message.content === '' ? [] : [{ type: 'text', text: message.content }];
    case 'tool':
      return [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }];
    case 'assistant': {
      const blocks: WireBlock[] = (message.thinking ?? []).map(toThinkingBlock);
      const text = message.content === '' && message.refusal ? message.refusal : message.content;
      if (text !== '') blocks.push({ type: 'text', text });
      for (const call of message.toolCalls ?? [])
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
      return blocks;
    }
  }
}

function toThinkingBlock(block: ThinkingBlock): WireBlock {
  return block.type === 'thinking'
    ? { type: 'thinking', thinking: block.thinking, signature: block.signature }
    : { type: 'redacted_thinking', data: block.data };
}

/**
 * The arguments as the object `tool_use.input` must be. Arguments that are not a JSON object
 * (the model wrote broken JSON, which tole recorded as it came) go back as their text, so the
 * model sees what it sent beside the error its tool result carries.
 */
function toolInput(args: string): unknown {
  try {
    const parsed: unknown = JSON.parse(args === '' ? '{}' : args);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
  } catch {
    // Falls through to the text.
  }
  return { invalid_arguments: args };
}

/**
 * Breakpoints, at most four: the last tool, the last system block, the newest message's last
 * block, and the last block of the message the previous call ended with (the one before the
 * newest assistant turn), whose prefix that call wrote to the cache.
 */
function placeBreakpoints(tools: WireTool[], system: WireBlock[], messages: WireMessage[]): void {
  const marks: (WireTool | CacheableBlock)[] = [];
  const lastTool = tools[tools.length - 1];
  if (lastTool !== undefined) marks.push(lastTool);
  const lastSystem = lastCacheable({ role: 'user', content: system });
  if (lastSystem !== undefined) marks.push(lastSystem);
  const newest = messages.length - 1;
  const newestBlock = lastCacheable(messages[newest]);
  if (newestBlock !== undefined) marks.push(newestBlock);
  let assistantAt = -1;
  for (let i = newest; i >= 0; i--) {
    if (messages[i]!.role === 'assistant') {
      assistantAt = i;
      break;
    }
  }
  const previousEnd = assistantAt > 0 ? lastCacheable(messages[assistantAt - 1]) : undefined;
  if (previousEnd !== undefined && previousEnd !== newestBlock) marks.push(previousEnd);
  for (const mark of marks.slice(0, MAX_CACHE_BREAKPOINTS)) mark.cache_control = EPHEMERAL;
}

/** The message's last block that may carry `cache_control` (thinking blocks may not). */
type CacheableBlock = Exclude<WireBlock, { type: 'thinking' | 'redacted_thinking' }>;

function lastCacheable(message: WireMessage | undefined): CacheableBlock | undefined {
  if (message === undefined) return undefined;
  for (let i = message.content.length - 1; i >= 0; i--) {
    const block = message.content[i]!;
    if (block.type !== 'thinking' && block.type !== 'redacted_thinking') return block;
  }
  return undefined;
}
