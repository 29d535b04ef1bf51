/**
 * Which key goes to which server: each provider's own variable only to it, OPENAI_API_KEY to
 * OpenAI or to a base URL the user named, nothing to a local preset, and nothing over plain http
 * to another host unless the user's config says so. The key itself is never named.
 */
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import type { Config } from '../../src/cli/config';
import { missingKey, resolveProvider } from '../../src/cli/settings';

const env = { OPENAI_API_KEY: 'sk-openai-secret', CORP_KEY: 'corp-secret' };

function resolve(argv: string[], config: Config, environment: NodeJS.ProcessEnv = env) {
  return resolveProvider(parseArgs(argv), config, environment, 'config.json');
}

describe('a key goes only where it belongs', () => {
  it('OPENAI_API_KEY goes to the OpenAI preset and to a base URL the user named', () => {
    expect(resolve([], {}).apiKey).toBe('sk-openai-secret');
    expect(resolve(['--base-url', 'https://llm.example.com/v1'], {})).toMatchObject({
      apiKey: 'sk-openai-secret',
      apiKeyEnv: 'OPENAI_API_KEY',
    });
    expect(resolve([], { baseUrl: 'https://llm.example.com/v1' }).apiKey).toBe('sk-openai-secret');
    expect(resolve([], {}, { ...env, OPENAI_BASE_URL: 'http://127.0.0.1:4000/v1' }).apiKey).toBe('sk-openai-secret');
  });

  it('a local preset gets no key unless one is configured for it', () => {
    for (const provider of ['ollama', 'llamacpp', 'lmstudio', 'vllm']) {
      expect(resolve([], { provider }), provider).toMatchObject({ apiKey: '', apiKeyEnv: null });
      expect(missingKey(resolve([], { provider }))).toBe(false);
    }
  });

  it('a provider with its own key variable never falls back to OPENAI_API_KEY', () => {
    const corp: Config = {
      provider: 'corp',
      providers: { corp: { baseUrl: 'https://corp.example.com/v1', apiKeyEnv: 'CORP_KEY' } },
    };
    expect(resolve([], corp)).toMatchObject({ apiKey: 'corp-secret', apiKeyEnv: 'CORP_KEY' });
    expect(resolve([], corp, { OPENAI_API_KEY: 'sk-openai-secret' }).apiKey).toBe('');
    expect(resolve([], { provider: 'openrouter' }).apiKey).toBe('');
    expect(resolve([], { provider: 'openrouter' }, { ...env, OPENROUTER_API_KEY: 'or-secret' }).apiKey).toBe(
      'or-secret',
    );
  });

  it('no key over plain http to another host unless the user config says so for it; the notice names the variable, never the key', () => {
    const plain = resolve(['--base-url', 'http://llm.example.com:8000/v1'], {});
    expect(plain.apiKey).toBe('');
    expect(plain.keyWithheld).toContain('OPENAI_API_KEY');
    expect(plain.keyWithheld).toContain('http://llm.example.com:8000/v1');
    expect(plain.keyWithheld).not.toContain('sk-openai-secret');
    // Sent without a key: a server on the LAN may need none.
    expect(missingKey(plain)).toBe(false);
    expect(resolve([], { baseUrl: 'http://llm.example.com:8000/v1', keyOverHttp: true }).apiKey).toBe(
      'sk-openai-secret',
    );
    const corp: Config = {
      provider: 'corp',
      providers: { corp: { baseUrl: 'http://10.1.2.3/v1', apiKeyEnv: 'CORP_KEY', keyOverHttp: true } },
    };
    expect(resolve([], corp).apiKey).toBe('corp-secret');
    for (const local of ['http://127.0.0.1:8080/v1', 'http://localhost:1234/v1', 'http://[::1]:8000/v1']) {
      expect(resolve(['--base-url', local], {}).apiKey, local).toBe('sk-openai-secret');
    }
  });
});
