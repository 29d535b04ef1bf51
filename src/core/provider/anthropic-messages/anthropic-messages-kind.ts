/** The `anthropic-messages` API kind: Anthropic's Messages API (`/v1/messages`). */
import type { ProviderOptions } from '../provider-options';
import type { LoadedProvider } from '../provider-kind';
import { AnthropicProvider } from './anthropic-provider';

export function createProvider(options: ProviderOptions): LoadedProvider {
  return new AnthropicProvider(options);
}
