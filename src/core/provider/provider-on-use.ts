/**
 * A provider whose API kind is loaded on its first call: a kind's client is a large module that a
 * session's first frame never uses, so it is compiled when the first request (or model list) is
 * made instead of at start.
 */
import { missingModuleMessage } from '../missing-module';
import type { DiscoveredWindow } from './context-window';
import { ProviderError } from './errors';
import type { CompletionEvent, CompletionRequest, CompletionResult, ModelInfo, Provider } from './provider';
import type { ProviderOptions } from './provider-options';
import type { LoadedProvider, ProviderKindModule } from './provider-kind';
import { type ApiKind, loadKind } from './registry';

export class ProviderOnUse implements Provider {
  readonly name: string;
  readonly baseURL: string;
  private loaded: Promise<LoadedProvider> | null = null;

  constructor(
    readonly kind: ApiKind,
    private readonly options: ProviderOptions,
    /** How the kind's module is loaded (tests hand in one that fails). */
    private readonly load: () => Promise<ProviderKindModule> = () => loadKind(kind),
  ) {
    this.name = options.name ?? kind;
    this.baseURL = options.baseURL;
  }

  /**
   * A load that failed is not kept: the next call tries again. Its error is a ProviderError, so
   * that the turn ends with words that say what to do, as a refused request does.
   */
  private provider(): Promise<LoadedProvider> {
    this.loaded ??= this.load().then(
      (kind) => kind.createProvider(this.options),
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

  /** The server's models; none when the kind cannot list them. */
  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const provider = await this.provider();
    return provider.listModels ? provider.listModels(signal) : [];
  }

  /** The model's context window as the server says it; null when the kind cannot say. */
  async contextWindow(model: string, signal?: AbortSignal): Promise<DiscoveredWindow | null> {
    const provider = await this.provider();
    return provider.contextWindow ? provider.contextWindow(model, signal) : null;
  }
}
