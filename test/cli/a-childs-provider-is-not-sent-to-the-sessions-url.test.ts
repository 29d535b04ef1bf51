/**
 * A sub-agent whose profile names another provider than the session's gets that provider's base
 * URL, key and model: the session's own --base-url, OPENAI_BASE_URL, config baseUrl and --model
 * are its provider's, and would otherwise send the other provider's key to the session's server.
 */
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { childSettings } from '../../src/cli/child-providers';
import type { Config } from '../../src/cli/config';

const config = {
  provider: 'local',
  baseUrl: 'https://session-config.example/v1',
  model: 'session-model',
  providers: {
    local: { baseUrl: 'http://127.0.0.1:8080/v1', apiKeyEnv: 'LOCAL_KEY' },
    second: { baseUrl: 'https://second.example/v1', model: 'second-model', apiKeyEnv: 'SECOND_KEY' },
  },
} as Config;
const env = {
  OPENAI_BASE_URL: 'https://router.example/v1',
  ANTHROPIC_API_KEY: 'anthropic-secret',
  SECOND_KEY: 'second-secret',
  LOCAL_KEY: 'local-secret',
};
const args = parseArgs(['--base-url', 'https://session-flag.example/v1', '--model', 'flag-model']);

describe("a child's provider", () => {
  it('another provider keeps its own base URL, key and model whatever the session chose', () => {
    const anthropic = childSettings({ args, config, env }, 'anthropic', 'profile.json');
    expect(anthropic).toMatchObject({ baseUrl: 'https://api.anthropic.com', apiKey: 'anthropic-secret' });
    expect(anthropic.model).not.toBe('flag-model');

    expect(childSettings({ args: parseArgs([]), config, env }, 'second', 'profile.json')).toMatchObject({
      baseUrl: 'https://second.example/v1',
      apiKey: 'second-secret',
      model: 'second-model',
    });
  });

  it("the session's own provider keeps the session's base URL and model, its key going where the session's goes", () => {
    expect(childSettings({ args, config, env }, 'local', 'profile.json')).toMatchObject({
      baseUrl: 'https://session-flag.example/v1',
      apiKey: 'local-secret',
      model: 'flag-model',
    });
  });
});
