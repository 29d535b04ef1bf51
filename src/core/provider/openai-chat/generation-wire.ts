/**
 * Generation settings on the Chat Completions wire: the request-body fields they become, and,
 * when a server refuses a request that carried some, which setting it named.
 */
import { APIError } from 'openai';
import { ProviderError } from '../errors';
import type { GenerationSettings } from '../provider';

type SettingName = keyof GenerationSettings;

/**
 * Config name → wire field (`maxOutputTokens` goes out as the provider's max-tokens field;
 * `thinkingBudgetTokens` is Anthropic's and has no Chat Completions field).
 */
const WIRE_NAMES: Readonly<Record<Exclude<SettingName, 'maxOutputTokens' | 'thinkingBudgetTokens'>, string>> = {
  temperature: 'temperature',
  topP: 'top_p',
  reasoningEffort: 'reasoning_effort',
  seed: 'seed',
  stop: 'stop',
};

/** The body fields for `settings`; `maxOutputTokens` (a caller's own limit) goes over the settings' one. */
export function generationFields(
  settings: GenerationSettings | undefined,
  maxTokensField: string,
  maxOutputTokens: number | undefined,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, wire] of Object.entries(WIRE_NAMES) as [keyof typeof WIRE_NAMES, string][]) {
    const value = settings?.[name];
    if (value !== undefined) fields[wire] = Array.isArray(value) ? [...value] : value;
  }
  const maxTokens = maxOutputTokens ?? settings?.maxOutputTokens;
  if (maxTokens !== undefined) fields[maxTokensField] = maxTokens;
  return fields;
}

/**
 * A refused request (400/422) that carried generation settings: when the server's words or its
 * `param` name one of them, the error says which setting and where to remove it. Other errors
 * come back as they were.
 */
export function nameRefusedSetting(
  error: ProviderError,
  settings: GenerationSettings | undefined,
  maxTokensField: string,
): ProviderError {
  if (error.kind !== 'bad_request' || settings === undefined) return error;
  const sent = (Object.keys(settings) as SettingName[]).filter(
    (name): name is keyof typeof WIRE_NAMES | 'maxOutputTokens' =>
      settings[name] !== undefined && (name === 'maxOutputTokens' || Object.hasOwn(WIRE_NAMES, name)),
  );
  if (sent.length === 0) return error;
  const cause = error.cause instanceof APIError ? error.cause : undefined;
  const param = typeof cause?.param === 'string' ? cause.param : '';
  const text = `${param} ${error.message}`;
  const named = sent.find(
    (name) => mentions(text, name === 'maxOutputTokens' ? maxTokensField : WIRE_NAMES[name]) || mentions(text, name),
  );
  if (named === undefined) return error;
  const wire = named === 'maxOutputTokens' ? maxTokensField : WIRE_NAMES[named];
  return new ProviderError({
    kind: 'bad_request',
    message: `the server refused the generation setting ${named} (sent as "${wire}"): ${error.message}`,
    hint: `remove "${named}" from "generation" in the config (or from the agent profile), or use a model that takes it`,
    ...(error.status === undefined ? {} : { status: error.status }),
    cause: error,
  });
}

function mentions(text: string, word: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_])${word}([^A-Za-z0-9_]|$)`, 'i').test(text);
}
