import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { readConfigFile } from '../../src/cli/config';
import { resolveProvider } from '../../src/cli/settings';
import { buildProvider } from '../../src/cli/wiring';
import { seededRandom, systemClock } from '../../src/core/clock';
import { ProviderOnUse } from '../../src/core/provider/provider-on-use';
import { API_KINDS, loadKind } from '../../src/core/provider/registry';
import { tempDirForTest } from '../support/after-the-test';

function configFile(content: string): string {
  const path = join(tempDirForTest('tole-config-'), 'tole.config.json');
  writeFileSync(path, content);
  return path;
}

describe('the API kind of a provider', () => {
  it('a custom provider names its API with "api"; without one it speaks Chat Completions', () => {
    const path = configFile(
      JSON.stringify({
        provider: 'mine',
        providers: {
          mine: { api: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1' },
          other: { baseUrl: 'http://127.0.0.1:8/v1' },
        },
      }),
    );
    const config = readConfigFile(path);
    const mine = resolveProvider(parseArgs([]), config, {}, path);
    const other = resolveProvider(parseArgs([]), { ...config, provider: 'other' }, {}, path);
    expect(mine.api).toBe('openai-chat');
    expect(other.api).toBe('openai-chat');
    const provider = buildProvider(mine, config, seededRandom(1));
    expect(provider).toBeInstanceOf(ProviderOnUse);
    expect((provider as ProviderOnUse).kind).toBe('openai-chat');
  });

  it('an API tole does not speak is refused with the ones it does', () => {
    const path = configFile(JSON.stringify({ providers: { x: { api: 'soap', baseUrl: 'http://127.0.0.1:9' } } }));
    expect(() => readConfigFile(path)).toThrow(/providers\.x\.api/);
    expect(() => readConfigFile(path)).toThrow(new RegExp(API_KINDS.join('.*')));
  });

  it('every kind in the registry loads a folder that makes a provider', async () => {
    for (const kind of API_KINDS) {
      const module = await loadKind(kind);
      const provider = module.createProvider({
        baseURL: 'http://127.0.0.1:9',
        random: seededRandom(1),
        clock: systemClock,
      });
      expect(typeof provider.complete).toBe('function');
    }
  });
});
