/**
 * The screen tole runs, opened through the host tole really uses (src/cli/screen-sessions.ts:
 * openForTui, prepareSession, wireTui, a real Agent over the OpenAI client and the local chat
 * server): what the /new and /resume tests drive. What it opens is closed when the test ends.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import type { Config } from '../../src/cli/config';
import { ScreenSessions } from '../../src/cli/screen-sessions';
import { resolveProvider } from '../../src/cli/settings';
import { buildPolicy } from '../../src/cli/wiring';
import { seededRandom } from '../../src/core/clock';
import { SessionScreen } from '../../src/tui/screen/SessionScreen';
import { loadTheme } from '../../src/tui/style/theme';
import { afterTheTest, tempDirForTest } from '../support/after-the-test';
import type { ChatServer } from '../support/chat-server';
import { FakeStdin, FakeStdout, renderShipped, stripAnsi } from './harness';

/** A pause between keys, for the screen to take each one. */
export const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

/**
 * The full-screen tole's host and screen, with every part real but the terminal, talking to
 * `server`; unmounted and its sessions let go when the test ends.
 */
export async function openTole(
  server: ChatServer,
  setup: { config?: Config; home?: (home: string) => void; argv?: readonly string[] } = {},
): Promise<{
  sessions: ScreenSessions;
  dir: string;
  root: string;
  frame: () => string;
  type: (text: string) => Promise<void>;
  press: (...keys: string[]) => Promise<void>;
  shows: (text: string | RegExp, timeoutMs?: number) => Promise<string>;
  quit: ReturnType<typeof vi.fn>;
}> {
  const parent = tempDirForTest('tole-switch-');
  const root = join(parent, 'workspace');
  const home = join(parent, 'home');
  const dir = join(home, '.tole', 'sessions');
  for (const d of [root, home, dir]) mkdirSync(d, { recursive: true });
  setup.home?.(home);
  const args = parseArgs(['--base-url', server.url, '--model', 'tole-test-model', ...(setup.argv ?? [])]);
  const config: Config = { limits: { maxAttempts: 1 }, ...setup.config };
  const env = { HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  const settings = resolveProvider(args, config, env, 'tole.config.json');
  const sessions = new ScreenSessions({
    args,
    env,
    cwd: root,
    config,
    files: [],
    gated: { config, projectTrusted: false, notices: [] },
    configFile: 'tole.config.json',
    settings,
    random: seededRandom(17),
    projectMcp: null,
    projectTrusted: false,
    sandbox: null,
    dir,
  });
  const first = await sessions.first(args, [], buildPolicy(args, config, true, 'tole.config.json'));
  const stdout = new FakeStdout(140, 40);
  const stdin = new FakeStdin();
  const quit = vi.fn();
  const instance = renderShipped(
    <SessionScreen
      session={first}
      switcher={sessions}
      theme={loadTheme('dark')}
      noColor
      onQuit={quit}
      onCrash={(error) => {
        throw error;
      }}
    />,
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  afterTheTest(async () => {
    instance.unmount();
    await sessions.releaseAll();
  });
  const frame = (): string => stripAnsi(stdout.frames[stdout.frames.length - 1] ?? '');
  return {
    sessions,
    dir,
    root,
    frame,
    quit,
    async type(text) {
      for (const ch of text) {
        stdin.write(ch);
        await tick();
      }
    },
    async press(...keys) {
      for (const key of keys) {
        stdin.write(key);
        await tick();
      }
    },
    async shows(text, timeoutMs = 5000) {
      await vi.waitFor(() => {
        const current = frame();
        if (typeof text === 'string' ? !current.includes(text) : !text.test(current))
          throw new Error(`screen does not show ${String(text)}:\n${current}`);
      }, timeoutMs);
      return frame();
    },
  };
}
