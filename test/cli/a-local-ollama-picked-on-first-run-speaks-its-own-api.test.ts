import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/clock';
import { ProviderOnUse } from '../../src/core/provider/provider-on-use';
import type { Provider } from '../../src/core/provider/provider';
import { SwitchableProvider } from '../../src/core/provider/switchable-provider';
import { providerSetup } from '../../src/cli/provider-setup';
import type { ProviderSettings } from '../../src/cli/settings';

const settings: ProviderSettings = {
  name: 'openai',
  api: 'openai-chat',
  baseUrl: 'https://api.openai.com/v1',
  apiKey: '',
  apiKeyEnv: 'OPENAI_API_KEY',
  model: 'gpt-4.1-mini',
  headers: {},
  defaulted: true,
};

function picked(name: string, baseUrl: string): Provider {
  const provider = new SwitchableProvider(null);
  let used: Provider | null = null;
  provider.use = (chosen: Provider) => {
    used = chosen;
  };
  const setup = providerSetup({
    settings,
    config: {},
    files: [],
    env: {},
    cwd: '/',
    provider,
    random: seededRandom(1),
  });
  setup.use({ name, baseUrl, models: ['llama3.1'] }, 'llama3.1');
  return used!;
}

describe('a local server picked on the first-run panel', () => {
  it("is spoken to in Ollama's own API when it is Ollama (so num_ctx is sent), in Chat Completions otherwise", () => {
    const ollama = picked('Ollama', 'http://127.0.0.1:11434/v1');
    expect(ollama).toBeInstanceOf(ProviderOnUse);
    expect((ollama as ProviderOnUse).kind).toBe('ollama');
    expect((picked('llama.cpp', 'http://127.0.0.1:8080/v1') as ProviderOnUse).kind).toBe('openai-chat');
  });
});
