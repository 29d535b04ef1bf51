import type { DiscoveredWindow } from './context-window';
import { ProviderError } from './errors';
import type { CompletionEvent, CompletionRequest, CompletionResult, Provider } from './provider';

/** What a provider may offer beyond `complete`: its model list (compaction reads context windows from it). */
interface ModelLister {
  listModels?(signal?: AbortSignal): Promise<readonly { readonly id: string; readonly contextWindowTokens?: number }[]>;
  contextWindow?(model: string, signal?: AbortSignal): Promise<DiscoveredWindow | null>;
}

/**
 * A provider whose server can be changed while the Agent that holds it runs: the host wires one
 * always, empty when no provider is usable yet (no key, nothing configured), and calls `use` when
 * the user picks one (a local server found on first run). A call made while it is empty fails as
 * an `auth` error that says what to do; it is never sent anywhere.
 */
export class SwitchableProvider implements Provider {
  private current: (Provider & ModelLister) | null;
  private currentName: string;
  private currentAddress: string | null;

  /** `address`: where the provider's server is (its base URL), said beside its name (`/context`). */
  constructor(provider: Provider | null, name?: string, address?: string) {
    this.current = provider;
    this.currentName = name ?? provider?.name ?? 'none';
    this.currentAddress = provider === null ? null : (address ?? null);
  }

  /** The name of the provider in use ("none" while empty). */
  get name(): string {
    return this.currentName;
  }

  /** Where the provider in use is (its base URL), when the host said; null while empty. */
  get address(): string | null {
    return this.currentAddress;
  }

  /** False while no provider is set: a model call would fail. */
  get usable(): boolean {
    return this.current !== null;
  }

  /** From the next call on, `provider` answers. A call already running finishes where it started. */
  use(provider: Provider, name?: string, address?: string): void {
    this.current = provider;
    this.currentName = name ?? provider.name;
    this.currentAddress = address ?? null;
  }

  complete(request: CompletionRequest, onEvent: (event: CompletionEvent) => void): Promise<CompletionResult> {
    const provider = this.current;
    if (provider === null) return Promise.reject(noProviderError());
    return provider.complete(request, onEvent);
  }

  /** The current provider gets ready for a call (nothing, while none is set). */
  prepare(): void {
    this.current?.prepare?.();
  }

  /** The current provider's context window for `model`; null when it cannot say or none is set. */
  async contextWindow(model: string, signal?: AbortSignal): Promise<DiscoveredWindow | null> {
    const provider = this.current;
    if (provider === null) return null;
    if (typeof provider.contextWindow === 'function') return provider.contextWindow(model, signal);
    const tokens = (await this.listModels(signal)).find((m) => m.id === model)?.contextWindowTokens;
    return tokens === undefined ? null : { tokens, source: 'the model list' };
  }

  /** The current provider's model list; empty when it has none or none is set. */
  async listModels(
    signal?: AbortSignal,
  ): Promise<readonly { readonly id: string; readonly contextWindowTokens?: number }[]> {
    const provider = this.current;
    if (provider === null || typeof provider.listModels !== 'function') return [];
    return provider.listModels(signal);
  }
}

function noProviderError(): ProviderError {
  return new ProviderError({
    kind: 'auth',
    message: 'no model provider is set up: there is no API key and no server to talk to',
    hint: 'set OPENAI_API_KEY (or your provider key variable), or point --base-url at a local server (Ollama, llama.cpp, LM Studio)',
  });
}
