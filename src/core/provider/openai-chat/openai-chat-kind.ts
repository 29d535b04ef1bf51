/** The `openai-chat` API kind: Chat Completions (`/v1/chat/completions`) with the `openai` client. */
import type { LoadedProvider } from '../provider-kind';
import type { ProviderOptions } from '../provider-options';
import { OpenAIProvider } from './openai-provider';

export function createProvider(options: ProviderOptions): LoadedProvider {
  return new OpenAIProvider(options);
}
