/** What every API kind's folder gives the registry: a provider made from the options. */
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
