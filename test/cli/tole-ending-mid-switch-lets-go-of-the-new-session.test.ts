/**
 * tole can end (a quit, a lost terminal) while `/new` or `/resume` is still opening the other
 * session. What that open made must be let go as well: its lock, and the empty session file it
 * created; the open itself rejects instead of handing a screen a session that is closed.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import type { Config } from '../../src/cli/config';
import { ScreenSessions } from '../../src/cli/screen-sessions';
import { resolveProvider } from '../../src/cli/settings';
import { buildPolicy } from '../../src/cli/wiring';
import { seededRandom } from '../../src/core/clock';
import { tempDirForTest } from '../support/after-the-test';

function screenSessions(): {
  sessions: ScreenSessions;
  dir: string;
  args: ReturnType<typeof parseArgs>;
  config: Config;
} {
  const parent = tempDirForTest('tole-end-mid-switch-');
  const root = join(parent, 'workspace');
  const home = join(parent, 'home');
  const dir = join(home, '.tole', 'sessions');
  for (const d of [root, home, dir]) mkdirSync(d, { recursive: true });
  const args = parseArgs(['--base-url', 'http://127.0.0.1:9/v1', '--model', 'tole-test-model']);
  const config: Config = { limits: { maxAttempts: 1 } };
  const env = { HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  const sessions = new ScreenSessions({
    args,
    env,
    cwd: root,
    config,
    files: [],
    gated: { config, projectTrusted: false, notices: [] },
    configFile: 'tole.config.json',
    settings: resolveProvider(args, config, env, 'tole.config.json'),
    random: seededRandom(23),
    projectMcp: null,
    projectTrusted: false,
    sandbox: null,
    dir,
  });
  return { sessions, dir, args, config };
}

describe('tole ending while /new opens another session', () => {
  it('lets go of the session the open made (no lock, no empty file left), and the open rejects', async () => {
    const { sessions, dir, args, config } = screenSessions();
    const first = await sessions.first(args, [], buildPolicy(args, config, true, 'tole.config.json'));
    const opening = sessions.open({ kind: 'new' }, first);
    const outcome = opening.then(
      () => 'opened',
      (error: Error) => error.message,
    );
    await sessions.releaseAll();
    expect(await outcome).toMatch(/tole is ending/);
    // Both sessions were empty: neither file nor lock stays behind.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('opens nothing once tole is ending', async () => {
    const { sessions, dir, args, config } = screenSessions();
    const first = await sessions.first(args, [], buildPolicy(args, config, true, 'tole.config.json'));
    await sessions.releaseAll();
    await expect(sessions.open({ kind: 'new' }, first)).rejects.toThrow(/tole is ending/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('lets go of every session when closing one of them fails, and then says why', async () => {
    const { sessions, dir, args, config } = screenSessions();
    const first = await sessions.first(args, [], buildPolicy(args, config, true, 'tole.config.json'));
    // /new opened the next session; the screen has not let go of the first yet.
    await sessions.open({ kind: 'new' }, first);
    expect(readdirSync(dir).length).toBeGreaterThan(0);
    const close = first.store.close.bind(first.store);
    first.store.close = () => {
      close();
      throw new Error('close failed');
    };
    await expect(sessions.releaseAll()).rejects.toThrow('close failed');
    // The other session (and the first's empty file) were let go all the same.
    expect(readdirSync(dir)).toEqual([]);
  });
});
