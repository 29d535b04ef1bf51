/**
 * The OpenAI-compatible provider, loaded on its first call: the `openai` client is a large module
 * that a session's first frame never uses, so it is compiled when the first request (or model
 * list) is made instead of at start.
 */
import { missingModuleMessage } from '../missing-module';
import type { DiscoveredWindow } from './context-window';
import { ProviderError } from './errors';
import type { ModelInfo } from './openai-wire';
import type { OpenAIProvider, OpenAIProviderOptions } from './openai-provider';
import type { CompletionEvent, CompletionRequest, CompletionResult, Provider } from './provider';

export class OpenAIProviderOnUse implements Provider {
  readonly name: string;
  readonly baseURL: string;
  private loaded: Promise<OpenAIProvider> | null = null;

  constructor(
    private readonly options: OpenAIProviderOptions,
    /** How the client module is loaded (tests hand in one that fails). */
    private readonly load: () => Promise<typeof import('./openai-provider')> = () => import('./openai-provider'),
  ) {
    this.name = options.name ?? 'openai';
    this.baseURL = options.baseURL;
  }

  /**
   * A load that failed is not kept: the next call tries again. Its error is a ProviderError, so
   * that the turn ends with words that say what to do, as a refused request does.
   */
  private provider(): Promise<OpenAIProvider> {
    this.loaded ??= this.load().then(
      ({ OpenAIProvider }) => new OpenAIProvider(this.options),
      (error: unknown) => {
        this.loaded = null;
        throw new ProviderError({
          kind: 'bad_request',
          message: `the provider client could not be loaded: ${(error as Error)?.message ?? String(error)}`,
          hint: missingModuleMessage(error) ?? 'start tole again; if it happens again, reinstall tole',
          cause: error,
        });
      },
    );
    return this.loaded;
  }

  /** Loads the client ahead of the call (the user is writing a prompt); a failed load is tried again by the call. */
  prepare(): void {
    this.provider().catch(() => undefined);
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
