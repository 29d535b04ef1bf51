/**
 * The API kinds tole speaks, one line each: the kind's name (the config's `"api"`) and how its
 * folder is loaded. A kind's code (its client, wire format, stream reader and error reading) is
 * loaded on its first call, so a start pays for none of them. Adding a kind is one folder under
 * src/core/provider/ with a `createProvider` and one line here.
 */
import type { DiscoveredWindow } from './context-window';
import type { ModelInfo, Provider } from './provider';
import type { ProviderOptions } from './provider-options';

/** A kind's provider: completions, and when its server can say, its models and their windows. */
export interface LoadedProvider extends Provider {
  listModels?(signal?: AbortSignal): Promise<ModelInfo[]>;
  contextWindow?(model: string, signal?: AbortSignal): Promise<DiscoveredWindow | null>;
}

/** What a kind's folder exports. */
export interface ProviderKindModule {
  createProvider(options: ProviderOptions): LoadedProvider;
}

const KINDS = {
  'openai-chat': () => import('./openai-chat/openai-chat-kind'),
  'anthropic-messages': () => import('./anthropic-messages/anthropic-messages-kind'),
  ollama: () => import('./ollama/ollama-kind'),
  gemini: () => import('./gemini/gemini-kind'),
} satisfies Record<string, () => Promise<ProviderKindModule>>;

export type ApiKind = keyof typeof KINDS;

export const API_KINDS = Object.keys(KINDS) as readonly ApiKind[];

export function isApiKind(name: string): name is ApiKind {
  return Object.hasOwn(KINDS, name);
}

/** Loads the kind's folder (on a provider's first call). */
export function loadKind(kind: ApiKind): Promise<ProviderKindModule> {
  return KINDS[kind]();
}
