/** The `gemini` API kind: the Gemini API's `streamGenerateContent` (SSE), the key in `x-goog-api-key`. */
import type { ProviderOptions } from '../provider-options';
import type { LoadedProvider } from '../provider-kind';
import { GeminiProvider } from './gemini-provider';

export function createProvider(options: ProviderOptions): LoadedProvider {
  return new GeminiProvider(options);
}
