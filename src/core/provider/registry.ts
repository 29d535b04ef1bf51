/**
 * The API kinds tole speaks, one line each: the kind's name (the config's `"api"`) and how its
 * folder is loaded. A kind's code (its client, wire format, stream reader and error reading) is
 * loaded on its first call, so a start pays for none of them. Adding a kind is one folder under
 * src/core/provider/ with a `createProvider` and one line here.
 */
import type { ProviderKindModule } from './provider-kind';

const KINDS = {
  'openai-chat': () => import('./openai-chat/openai-chat-kind'),
  'anthropic-messages': () => import('./anthropic-messages/anthropic-messages-kind'),
  ollama: () => import('./ollama/ollama-kind'),
  gemini: () => import('./gemini/gemini-kind'),
} satisfies Record<string, () => Promise<ProviderKindModule>>;

export type ApiKind = keyof typeof KINDS;

export const API_KINDS = Object.keys(KINDS) as readonly ApiKind[];

/** Loads the kind's folder (on a provider's first call). */
export function loadKind(kind: ApiKind): Promise<ProviderKindModule> {
  return KINDS[kind]();
}
