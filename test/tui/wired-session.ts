/**
 * The full-screen session's parts as `tole` wires them (src/cli/tui-wiring.ts): a real Agent over a
 * SwitchableProvider, the real OpenAI provider against a local chat server (or none: no key), the
 * host slash commands and the first-run panel's host side. Only the terminal is left out.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom, systemClock } from '../../src/core/clock';
import { SessionStore } from '../../src/core/storage/session-store';
import { parseArgs } from '../../src/cli/args';
import type { Config } from '../../src/cli/config';
import type { LOCAL_SERVERS } from '../../src/cli/probe-local';
import { resolveProvider } from '../../src/cli/settings';
import { wireTui, type TuiWiring } from '../../src/cli/tui-wiring';
import { buildPolicy } from '../../src/cli/wiring';
// tole loads the provider client at the first request (OpenAIProviderOnUse); loaded here with the
// test file, so that the screen's one-second waits for an answer do not also wait for the
// test runner to transform the client's modules on a busy machine.
import '../../src/core/provider/openai-chat/openai-provider';
import { tempDirForTest } from '../support/after-the-test';

export interface WiredSession extends TuiWiring {
  readonly store: SessionStore;
  /** The workspace (the session's cwd), a real path. */
  readonly root: string;
  readonly sessionsDir: string;
  /** An empty HOME: no user config, no key. */
  readonly home: string;
}

export interface WireOptions {
  /** The chat server's URL; absent: no provider at all (no key, nothing configured). */
  readonly baseUrl?: string;
  readonly model?: string;
  readonly config?: Config;
  readonly probe?: { readonly host: string; readonly servers: typeof LOCAL_SERVERS; readonly timeoutMs?: number };
  /** Open this session file instead of making one. */
  readonly sessionPath?: string;
}

export function wiredSession(options: WireOptions = {}): WiredSession {
  const parent = tempDirForTest('tole-wired-');
  const root = join(parent, 'workspace');
  const home = join(parent, 'home');
  const sessionsDir = join(home, '.tole', 'sessions');
  for (const dir of [root, home, sessionsDir]) mkdirSync(dir, { recursive: true });
  const argv = [
    ...(options.baseUrl ? ['--base-url', options.baseUrl] : []),
    ...(options.model ? ['--model', options.model] : []),
  ];
  const args = parseArgs(argv);
  const config: Config = { limits: { maxAttempts: 1 }, ...options.config };
  const env = { HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
  const settings = resolveProvider(args, config, env, 'tole.config.json');
  const random = seededRandom(41);
  const store = options.sessionPath
    ? SessionStore.open(options.sessionPath, { clock: systemClock, random })
    : SessionStore.create(sessionsDir, { clock: systemClock, random, cwd: root });
  const policy = buildPolicy(args, config, true, 'tole.config.json');
  const wiring = wireTui({
    config,
    files: [],
    settings,
    store,
    env,
    cwd: root,
    sessionsDir,
    random,
    policy,
    ...(options.probe ? { probe: options.probe } : {}),
  });
  return { ...wiring, store, root, sessionsDir, home };
}
