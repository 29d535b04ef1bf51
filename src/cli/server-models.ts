import type { AskedValues } from '../tui/prompt/completion-items';
import type { CompletionItem } from '../tui/prompt/completion-target';
import { formatTokens } from '../tui/text/format';

/** Where `/model ` completion asks for the server's models. */
export interface ModelServer {
  /** False while no provider is set up (nothing to ask). */
  readonly usable: boolean;
  /** The provider's name and base URL: a list is asked for again when they change (/connect, a profile's switch). */
  readonly name: string;
  readonly address: string | null;
  listModels(signal?: AbortSignal): Promise<readonly { readonly id: string; readonly contextWindowTokens?: number }[]>;
}

type State =
  | { readonly kind: 'asking' }
  | { readonly kind: 'listed'; readonly items: readonly CompletionItem[] }
  | { readonly kind: 'failed'; readonly reason: string };

/** The popup lists this many models at most. */
const MAX_MODELS = 1_000;
/** A model id longer than this is no name a person types: left out. */
const MAX_ID_LENGTH = 256;

/**
 * Whether a listed id can go into the prompt: the server is not trusted to send only names. No
 * control, format or private-use character (escapes, bidi overrides, zero-width marks, tags), no
 * lone surrogate or unassigned code point, no whitespace, no overlong id.
 */
function typeable(id: string): boolean {
  return id !== '' && id.length <= MAX_ID_LENGTH && !/[\p{C}\p{Z}\s]/u.test(id);
}

/**
 * The server's models for `/model ` completion: asked for when first wanted (the first `/model `
 * typed in a session), then kept for the session; asked again only when the provider changes.
 * The ask runs beside the keys, never before them: until it answers, or when it fails, the popup
 * says so and the name is typed as before.
 */
export class ServerModels implements AskedValues {
  private state: State | null = null;
  private askedOf = '';
  private readonly listeners = new Set<() => void>();

  constructor(private readonly server: ModelServer) {}

  items(): readonly CompletionItem[] {
    const state = this.current();
    return state?.kind === 'listed' ? state.items : [];
  }

  note(): string | null {
    if (!this.server.usable) return 'no provider is set up to list models: /connect finds a local server';
    const state = this.current();
    switch (state?.kind) {
      case undefined:
        return null;
      case 'asking':
        return `asking ${this.server.name} for its models…`;
      case 'failed':
        return `type the model's name (${this.server.name} did not list its models: ${state.reason})`;
      case 'listed':
        return state.items.length === 0 ? `type the model's name (${this.server.name} lists no models)` : null;
    }
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private current(): State | null {
    if (!this.server.usable) return null;
    const of = `${this.server.name} ${this.server.address ?? ''}`;
    if (this.state === null || this.askedOf !== of) this.ask(of);
    return this.state;
  }

  private ask(of: string): void {
    this.askedOf = of;
    this.state = { kind: 'asking' };
    const settle = (state: State) => {
      if (this.askedOf !== of) return;
      this.state = state;
      for (const listener of this.listeners) listener();
    };
    this.server.listModels().then(
      (models) =>
        settle({
          kind: 'listed',
          items: models
            .filter((model) => typeable(model.id))
            .slice(0, MAX_MODELS)
            .map((model) => ({
              insert: model.id,
              label: model.id,
              ...(model.contextWindowTokens ? { detail: `${formatTokens(model.contextWindowTokens)} tokens` } : {}),
            })),
        }),
      (error: unknown) => settle({ kind: 'failed', reason: reasonOf(error) }),
    );
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 120);
}
