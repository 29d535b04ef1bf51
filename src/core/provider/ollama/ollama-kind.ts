/** The `ollama` API kind: Ollama's native `/api/chat` (NDJSON), with `num_ctx` set from the model's window. */
import type { ProviderOptions } from '../provider-options';
import type { LoadedProvider } from '../provider-kind';
import { OllamaProvider } from './ollama-provider';

export function createProvider(options: ProviderOptions): LoadedProvider {
  return new OllamaProvider(options);
}
