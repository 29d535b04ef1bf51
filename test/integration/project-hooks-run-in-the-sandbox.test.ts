/**
 * A trusted project's hooks are still the repository's words: they run in the sandbox, where
 * one exists, while the user's own hooks run as written. The built tole runs one headless turn
 * in a trusted folder whose tole.config.json has a sessionStart hook and whose user config has a
 * userPrompt hook; each tries to leave a marker outside the workspace and one inside it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/core/tools/sandbox';
import { startChatServer, type ChatServer } from '../support/chat-server';
import { ensureBuilt, runBuiltTole, TOLE_JS } from '../support/built-tole';
import { REPO_ROOT } from '../support/repo-root';

const sandbox = detectSandbox(process.platform, process.env.PATH);
if (!sandbox) console.warn('project hooks in the sandbox: no working sandbox (bubblewrap) here; skipped');

let server: ChatServer;
let base: string;

beforeAll(async () => {
  ensureBuilt();
  server = await startChatServer({ defaultReply: { text: 'done' } });
  // Outside /tmp, so that the sandbox shows it read-only rather than hiding it.
  const parent = join(REPO_ROOT, 'node_modules', '.cache');
  mkdirSync(parent, { recursive: true });
  base = realpathSync(mkdtempSync(join(parent, 'tole-project-hooks-')));
});

afterAll(async () => {
  await server.close();
  rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!sandbox)('hooks of a trusted project', () => {
  it("run in the sandbox (the workspace writable, nothing outside); the user's own run as written", async () => {
    const ws = join(base, 'ws');
    const home = join(base, 'home');
    const out = join(base, 'out');
    for (const dir of [ws, out, join(home, '.config', 'tole')]) mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(ws, 'tole.config.json'),
      JSON.stringify({ hooks: { sessionStart: `touch project-ran; touch ${out}/project-outside` } }),
    );
    writeFileSync(
      join(home, '.config', 'tole', 'config.json'),
      JSON.stringify({ hooks: { userPrompt: `touch ${out}/user-outside` } }),
    );
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      TOLE_HOME: join(base, 'tole-home'),
      LANG: 'C.UTF-8',
    };
    execFileSync(process.execPath, [TOLE_JS, 'trust', ws], { env, stdio: 'ignore' });

    const run = await runBuiltTole(['-p', 'hello', '--base-url', server.url, '--model', 'm'], { cwd: ws, env });

    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(ws, 'project-ran')), 'the project hook ran').toBe(true);
    expect(existsSync(join(out, 'project-outside')), 'the project hook reached outside the workspace').toBe(false);
    expect(existsSync(join(out, 'user-outside')), "the user's own hook ran as written").toBe(true);
  }, 60_000);
});
