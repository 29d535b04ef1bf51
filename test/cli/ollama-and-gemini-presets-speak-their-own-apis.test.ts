/**
 * The config forms a user writes, `{"provider": "ollama", "baseUrl": ...}` and `{"provider":
 * "gemini", "baseUrl": ...}`: the built tole, run headless, speaks Ollama's /api/chat (with
 * num_ctx from /api/show) and Gemini's streamGenerateContent (the key from GEMINI_API_KEY in
 * x-goog-api-key) to the local stand-ins.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuiltTole } from '../support/built-tole';
import { GEMINI_TEST_KEY, startGeminiServer } from '../support/gemini-server';
import { startOllamaServer } from '../support/ollama-server';
import { tempDirForFile } from '../support/after-the-test';

const root = tempDirForFile('tole-native-kinds-');
const workspace = join(root, 'project');

beforeAll(() => {
  ensureBuilt();
  mkdirSync(workspace);
}, 120_000);

function userConfig(name: string, config: unknown): NodeJS.ProcessEnv {
  const home = join(root, name);
  mkdirSync(join(home, '.config', 'tole'), { recursive: true });
  writeFileSync(join(home, '.config', 'tole', 'config.json'), JSON.stringify(config));
  return { PATH: process.env.PATH, HOME: home, TOLE_HOME: join(home, 'tole-home'), LANG: 'C.UTF-8' };
}

describe.concurrent('the built tole with a native preset and a base URL', () => {
  it('"provider": "ollama" speaks /api/chat with num_ctx', async () => {
    const server = await startOllamaServer({ parameterNumCtx: 8192 });
    try {
      const env = userConfig('ollama', { provider: 'ollama', baseUrl: server.url });
      const run = await runBuiltTole(['-p', 'hello there'], { cwd: workspace, env, timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('echo: hello there');
      const [chat] = server.chats();
      expect(chat).toMatchObject({ model: 'llama3.1', stream: true, options: { num_ctx: 8192 } });
      expect(server.requests.some((r) => r.path.startsWith('/v1'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('"provider": "gemini" speaks streamGenerateContent with the key from GEMINI_API_KEY', async () => {
    const server = await startGeminiServer();
    try {
      const env = {
        ...userConfig('gemini', { provider: 'gemini', baseUrl: server.url }),
        GEMINI_API_KEY: GEMINI_TEST_KEY,
      };
      const run = await runBuiltTole(['-p', 'hello there'], { cwd: workspace, env, timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('echo: hello there');
      const generate = server.requests.find((r) => r.path.endsWith(':streamGenerateContent'));
      expect(generate?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
      expect(generate?.headers['x-goog-api-key']).toBe(GEMINI_TEST_KEY);
      expect(generate?.headers.authorization).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
