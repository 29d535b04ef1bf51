/**
 * The Gemini API's request on the wire: `POST {base}/models/{model}:streamGenerateContent?alt=sse`
 * with the key in `x-goog-api-key` (Gemini API reference, "Generating content",
 * https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent, and "API keys").
 * The body holds `contents` (turns of role `user` or `model`, each a list of `parts`),
 * `systemInstruction`, `tools: [{functionDeclarations}]` and `generationConfig`. A call the model
 * made is a `functionCall` part of a `model` turn; its answer a `functionResponse` part of the
 * next `user` turn, carrying the function's name (and id, when the call had one) and a
 * `response` object whose `output` key holds the result ("Function calling",
 * https://ai.google.dev/gemini-api/docs/function-calling; FunctionResponse in
 * https://ai.google.dev/api/caching#FunctionResponse).
 */
import type {
  ChatMessage,
  CompletionRequest,
  GenerationSettings,
  ReasoningEffort,
  ToolCallRequest,
  ToolDefinition,
} from '../provider';

type GeminiPart =
  | { readonly text: string; readonly thought?: boolean }
  | {
      readonly functionCall: { readonly name: string; readonly args: Record<string, unknown>; readonly id?: string };
      readonly thoughtSignature?: string;
    }
  | {
      readonly functionResponse: {
        readonly name: string;
        readonly response: Record<string, unknown>;
        readonly id?: string;
      };
    };

interface GeminiContent {
  readonly role: 'user' | 'model';
  readonly parts: GeminiPart[];
}

interface GeminiBody {
  readonly contents: readonly GeminiContent[];
  readonly systemInstruction?: { readonly parts: readonly { readonly text: string }[] };
  readonly tools?: readonly [{ readonly functionDeclarations: readonly unknown[] }];
  readonly generationConfig?: Readonly<Record<string, unknown>>;
}

/**
 * Gemini makes call ids of its own only sometimes; tole invents one when it sends none and keeps
 * it in the record. An id of tole's making is never sent back (the server would not know it).
 */
export const INVENTED_ID_PREFIX = 'tole_call_';

export function geminiStreamUrl(baseURL: string, model: string): string {
  const path = model.startsWith('models/') || model.startsWith('tunedModels/') ? model : `models/${model}`;
  // Each segment encoded; a dot segment (URLs read `..` and `%2E%2E` alike) is sent as the
  // literal name it is, which no server resolves, so no model name can climb out of models/.
  const segments = path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/^\.{1,2}$/, (dots) => '%252E'.repeat(dots.length)));
  return `${baseURL.replace(/\/+$/, '')}/${segments.join('/')}:streamGenerateContent?alt=sse`;
}

export function geminiBody(request: CompletionRequest, model: string): GeminiBody {
  const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
  const generationConfig = geminiGenerationConfig(request.generation, request.maxOutputTokens, model);
  return {
    contents: toGeminiContents(request.messages),
    ...(system.length > 0 ? { systemInstruction: { parts: [{ text: system.join('\n\n') }] } } : {}),
    ...(request.tools.length > 0 ? { tools: [{ functionDeclarations: request.tools.map(toDeclaration) }] } : {}),
    ...(Object.keys(generationConfig).length > 0 ? { generationConfig } : {}),
  };
}

/**
 * tole's messages as Gemini turns. System messages become the system instruction (Gemini has no
 * system turn); consecutive messages of the same side are one turn, so the results of one reply's
 * calls travel together, as the API expects them.
 */
function toGeminiContents(messages: readonly ChatMessage[]): GeminiContent[] {
  const calls = new Map<string, ToolCallRequest>();
  const contents: GeminiContent[] = [];
  const push = (role: GeminiContent['role'], parts: GeminiPart[]): void => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last !== undefined && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts: [...parts] });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        push('user', [{ text: message.content }]);
        break;
      case 'assistant': {
        const content = message.content === '' && message.refusal ? message.refusal : message.content;
        const parts: GeminiPart[] = content === '' ? [] : [{ text: content }];
        for (const call of message.toolCalls ?? []) {
          calls.set(call.id, call);
          // The signature goes back on the part it came with: Gemini 3 refuses a function call without it.
          parts.push({
            functionCall: { name: call.name, args: argumentsObject(call.arguments), ...serverId(call.id) },
            ...(call.signature === undefined ? {} : { thoughtSignature: call.signature }),
          });
        }
        // A model turn may not be empty: a reply that said nothing is sent as an empty text.
        push('model', parts.length === 0 ? [{ text: '' }] : parts);
        break;
      }
      case 'tool': {
        const call = calls.get(message.toolCallId);
        push('user', [
          {
            functionResponse: {
              name: call?.name ?? 'unknown_tool',
              response: { output: message.content },
              ...serverId(message.toolCallId),
            },
          },
        ]);
        break;
      }
    }
  }
  return contents;
}

function serverId(id: string): { id?: string } {
  return id.startsWith(INVENTED_ID_PREFIX) ? {} : { id };
}

/** The recorded arguments as an object; what was not one goes back under one key, as the model wrote it. */
function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // kept as text below
  }
  return { _unparsed: text };
}

/**
 * A tool's JSON Schema as a function declaration. `parametersJsonSchema` takes JSON Schema as it
 * is (the older `parameters` field takes only an OpenAPI subset and refuses `additionalProperties`,
 * `$schema` and the like, which tools' schemas carry).
 */
function toDeclaration(tool: ToolDefinition): unknown {
  return { name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters };
}

/** `generationConfig` (GenerationConfig in the reference): sampling, the output limit, thinking. */
function geminiGenerationConfig(
  settings: GenerationSettings | undefined,
  maxOutputTokens: number | undefined,
  model: string,
): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (settings?.temperature !== undefined) config.temperature = settings.temperature;
  if (settings?.topP !== undefined) config.topP = settings.topP;
  if (settings?.seed !== undefined) config.seed = settings.seed;
  if (settings?.stop !== undefined) config.stopSequences = [...settings.stop];
  const maxTokens = maxOutputTokens ?? settings?.maxOutputTokens;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  const thinking = thinkingConfig(settings?.reasoningEffort, model);
  if (thinking !== undefined) config.thinkingConfig = thinking;
  return config;
}

/** Token budgets per effort for models that take a budget (Gemini 2.5: "Thinking", https://ai.google.dev/gemini-api/docs/thinking). */
const THINKING_BUDGETS: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
};

/**
 * `thinkingConfig` for an effort: Gemini 3 models take a level (`low` or `high`), earlier ones a
 * token budget (0 turns thinking off where the model allows). With an effort set the model's
 * thought summaries are asked for too, and shown as reasoning.
 */
function thinkingConfig(effort: ReasoningEffort | undefined, model: string): Record<string, unknown> | undefined {
  if (effort === undefined) return undefined;
  if (/gemini-3/i.test(model)) {
    return { thinkingLevel: effort === 'high' || effort === 'medium' ? 'high' : 'low', includeThoughts: true };
  }
  if (effort === 'none') return { thinkingBudget: 0 };
  return { thinkingBudget: THINKING_BUDGETS[effort], includeThoughts: true };
}
