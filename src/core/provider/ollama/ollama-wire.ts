/**
 * Ollama's native chat API on the wire: `POST /api/chat` with `stream: true` answers with
 * newline-delimited JSON objects (Ollama's API reference, docs/api.md, "Generate a chat
 * completion"; https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion).
 * Each line carries `message.content` (text), `message.thinking` (reasoning) and
 * `message.tool_calls` (whole calls, their `function.arguments` a JSON object, not text); the last
 * line has `done: true`, `done_reason` and the counts `prompt_eval_count` / `eval_count`.
 *
 * tole speaks this API, not Ollama's OpenAI-compatible one, for `options.num_ctx`: without it
 * Ollama runs the model with its small default window and cuts a longer prompt from the front
 * without a word.
 */
import type { ChatMessage, CompletionRequest, GenerationSettings, ReasoningEffort, ToolDefinition } from '../provider';

interface OllamaToolCall {
  readonly id?: string;
  readonly function: { readonly name: string; readonly arguments: Record<string, unknown> };
}

type OllamaMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly tool_calls?: readonly OllamaToolCall[];
    }
  | { readonly role: 'tool'; readonly content: string; readonly tool_name?: string };

interface OllamaChatBody {
  readonly model: string;
  readonly messages: readonly OllamaMessage[];
  readonly stream: true;
  readonly tools?: readonly unknown[];
  readonly options?: Readonly<Record<string, unknown>>;
  readonly think?: boolean | 'low' | 'medium' | 'high';
}

/** The `/api/chat` body for `request`; `numCtx` is the window the model is to run with (omitted when unknown). */
export function ollamaChatBody(request: CompletionRequest, model: string, numCtx: number | undefined): OllamaChatBody {
  const options = ollamaOptions(request.generation, request.maxOutputTokens, numCtx);
  const think = thinkSetting(request.generation?.reasoningEffort, model);
  return {
    model,
    messages: toOllamaMessages(request.messages),
    stream: true,
    ...(request.tools.length > 0 ? { tools: request.tools.map(toOllamaTool) } : {}),
    ...(Object.keys(options).length > 0 ? { options } : {}),
    ...(think === undefined ? {} : { think }),
  };
}

function toOllamaMessages(messages: readonly ChatMessage[]): OllamaMessage[] {
  // A tool result names its function (Ollama matches results to calls by name and order, and
  // has no call ids of its own): the name comes from the call the result answers.
  const names = new Map<string, string>();
  return messages.map((message): OllamaMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant': {
        const content = message.content === '' && message.refusal ? message.refusal : message.content;
        const calls = message.toolCalls ?? [];
        for (const call of calls) names.set(call.id, call.name);
        if (calls.length === 0) return { role: 'assistant', content };
        return {
          role: 'assistant',
          content,
          tool_calls: calls.map((call) => ({
            function: { name: call.name, arguments: argumentsObject(call.arguments) },
          })),
        };
      }
      case 'tool': {
        const name = names.get(message.toolCallId);
        return { role: 'tool', content: message.content, ...(name === undefined ? {} : { tool_name: name }) };
      }
    }
  });
}

/**
 * The recorded arguments as the object Ollama wants. Arguments the model wrote that are not a JSON
 * object (tole recorded them as it got them, and answered the call with an error) go back under
 * one key, so the history stays valid and the model still sees what it wrote.
 */
function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // not JSON: kept as text below
  }
  return { _unparsed: text };
}

function toOllamaTool(tool: ToolDefinition): unknown {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

/** Ollama's `options`: the model's window and the sampling settings (docs/api.md, "Valid Parameters and Values" of the Modelfile). */
function ollamaOptions(
  settings: GenerationSettings | undefined,
  maxOutputTokens: number | undefined,
  numCtx: number | undefined,
): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (numCtx !== undefined) options.num_ctx = numCtx;
  if (settings?.temperature !== undefined) options.temperature = settings.temperature;
  if (settings?.topP !== undefined) options.top_p = settings.topP;
  if (settings?.seed !== undefined) options.seed = settings.seed;
  if (settings?.stop !== undefined) options.stop = [...settings.stop];
  const maxTokens = maxOutputTokens ?? settings?.maxOutputTokens;
  if (maxTokens !== undefined) options.num_predict = maxTokens;
  return options;
}

/**
 * `think`: off for `none`; a level for gpt-oss models, which take one; on for the other efforts.
 * Not sent when no effort is set, so a thinking model does what its server's default is.
 */
function thinkSetting(effort: ReasoningEffort | undefined, model: string): OllamaChatBody['think'] {
  if (effort === undefined) return undefined;
  if (effort === 'none') return false;
  if (!/gpt-oss/i.test(model)) return true;
  return effort === 'minimal' ? 'low' : effort;
}
