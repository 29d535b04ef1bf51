/**
 * `{"provider": "anthropic", "baseUrl": "http://127.0.0.1:PORT"}` with ANTHROPIC_API_KEY set
 * speaks Anthropic's Messages API to that server: in process through the settings and the
 * registry, and once through the built dist/tole.js in headless mode.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { resolveProvider } from '../../src/cli/settings';
import { buildProvider } from '../../src/cli/wiring';
import { seededRandom } from '../../src/core/clock';
import { type AnthropicServer, startAnthropicServer } from '../support/anthropic-server';
import { ensureBuilt, runBuiltTole } from '../support/built-tole';
import { tempDirForTest } from '../support/after-the-test';

let server: AnthropicServer;
beforeAll(async () => {
  ensureBuilt();
  server = await startAnthropicServer({ apiKey: 'sk-ant-local' });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('the anthropic preset with a base URL of its own', () => {
  it('resolves to the Messages API with the key from ANTHROPIC_API_KEY, and a call reaches /v1/messages', async () => {
    const config = { provider: 'anthropic', baseUrl: server.url };
    const env = { ANTHROPIC_API_KEY: 'sk-ant-local', OPENAI_API_KEY: 'sk-openai-not-this' };
    const settings = resolveProvider(parseArgs([]), config, env, 'config.json');
    expect(settings).toMatchObject({
      api: 'anthropic-messages',
      apiKey: 'sk-ant-local',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
    });
    const provider = buildProvider(settings, config, seededRandom(1));
    const before = server.requests.length;
    const result = await provider.complete(
      { model: '', messages: [{ role: 'user', content: 'ping' }], tools: [], signal: new AbortController().signal },
      () => {},
    );
    expect(result.text).toBe('echo: ping');
    const sent = server.requests[before]!;
    expect(sent.headers['x-api-key']).toBe('sk-ant-local');
    expect(sent.body.model).toBe('claude-sonnet-4-5');
  });

  it('the built tole, headless, answers through it', async () => {
    const root = tempDirForTest('tole-anthropic-');
    const home = join(root, 'home');
    const cwd = join(root, 'project');
    mkdirSync(join(home, '.config', 'tole'), { recursive: true });
    mkdirSync(cwd);
    writeFileSync(
      join(home, '.config', 'tole', 'config.json'),
      JSON.stringify({ provider: 'anthropic', baseUrl: server.url }),
    );
    const before = server.requests.length;
    const run = await runBuiltTole(['-p', 'hello from the bundle'], {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        TOLE_HOME: join(root, 'tole-home'),
        LANG: 'C.UTF-8',
        ANTHROPIC_API_KEY: 'sk-ant-local',
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('echo: hello from the bundle');
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent[0]!.body.system?.[0]?.['cache_control']).toEqual({ type: 'ephemeral' });
  });
});
