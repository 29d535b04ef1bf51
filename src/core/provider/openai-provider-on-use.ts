/**
 * The OpenAI-compatible provider, loaded on its first call: the `openai` client is a large module
 * that a session's first frame never uses, so it is compiled when the first request (or model
 * list) is made instead of at start.
 */
import type { DiscoveredWindow } from './context-window';
import type { ModelInfo } from './openai-wire';
import type { OpenAIProvider, OpenAIProviderOptions } from './openai-provider';
import type { CompletionEvent, CompletionRequest, CompletionResult, Provider } from './provider';

export class OpenAIProviderOnUse implements Provider {
  readonly name: string;
  readonly baseURL: string;
  private loaded: Promise<OpenAIProvider> | null = null;

  constructor(private readonly options: OpenAIProviderOptions) {
    this.name = options.name ?? 'openai';
    this.baseURL = options.baseURL;
  }

  private provider(): Promise<OpenAIProvider> {
    this.loaded ??= import('./openai-provider').then(({ OpenAIProvider }) => new OpenAIProvider(this.options));
    return this.loaded;
  }

  async complete(request: CompletionRequest, onEvent: (event: CompletionEvent) => void): Promise<CompletionResult> {
    return (await this.provider()).complete(request, onEvent);
  }

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    return (await this.provider()).listModels(signal);
  }

  async contextWindow(model: string, signal?: AbortSignal): Promise<DiscoveredWindow | null> {
    return (await this.provider()).contextWindow(model, signal);
  }
}
