/**
 * The model's commands and the hooks run without the user's secrets: a scripted model runs
 * `env` under --yes, and neither the session file nor what goes back to the provider holds the
 * key; a hook's environment has none either. A variable the user's own config passes through
 * is there.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileChatServer } from '../support/file-chat-server';
import { chatRequests, onlySessionFile, tempDirs } from '../support/agent-fixtures';
import { runBuiltTole } from '../support/built-tole';

const KEY = 'sk-test-secret-in-env-42';
const TOKEN = 'ghp_test_token_in_env_42';

const chat = fileChatServer({ defaultReply: { text: 'done' } }, { built: true });

describe('secrets stay out of the commands tole runs', () => {
  it('env run by the model under --yes shows no key; the session file and the provider never see it', async () => {
    const d = tempDirs('tole-secrets-');
    const userDir = join(d.parent, '.config', 'tole');
    mkdirSync(userDir, { recursive: true });
    // The user's own config: a hook, and one variable passed through on purpose.
    writeFileSync(
      join(userDir, 'config.json'),
      JSON.stringify({ hooks: { sessionStart: 'env > hook-env.txt' }, passEnv: ['PASSED_TOKEN'] }),
    );
    const env = {
      PATH: process.env.PATH,
      HOME: d.parent,
      TOLE_HOME: join(d.parent, 'tole-home'),
      LANG: 'C.UTF-8',
      OPENAI_API_KEY: KEY,
      GITHUB_TOKEN: TOKEN,
      PASSED_TOKEN: 'passed-on-purpose',
    };
    chat.server.push(
      {
        toolCalls: [
          {
            id: 'call_env',
            name: 'bash',
            arguments: JSON.stringify({ command: 'env; cat /proc/self/environ | tr "\\0" "\\n"' }),
          },
        ],
      },
      { text: 'done' },
    );
    const run = await runBuiltTole(
      ['-p', 'show me the environment', '--yes', '--base-url', chat.server.url, '--model', 'm'],
      { cwd: d.root, env },
    );

    expect(run.code, run.stderr).toBe(0);
    const session = readFileSync(onlySessionFile(join(d.parent, 'tole-home', 'sessions')), 'utf8');
    expect(session).toContain('PASSED_TOKEN=passed-on-purpose');
    expect(session).toContain('HOME=');
    expect(session).not.toContain(KEY);
    expect(session).not.toContain(TOKEN);
    const back = JSON.stringify(chatRequests(chat.server).at(-1)?.body);
    expect(back).toContain('PASSED_TOKEN');
    expect(back).not.toContain(KEY);
    const hookEnv = readFileSync(join(d.root, 'hook-env.txt'), 'utf8');
    expect(hookEnv).toContain('HOME=');
    expect(hookEnv).not.toContain(KEY);
    expect(hookEnv).not.toContain(TOKEN);
  });
});
