/**
 * The crash tests' shared set-up: one local chat server for the file (started before its first
 * test, closed after its last), and a child that runs a turn (crash-turn-child) or a restore
 * (crash-restore-child) against it and SIGKILLs itself at a fault point (TOLE_CRASH_AT, the CLI's
 * own hook), or the built tole killed and resumed with its home in the test's folders
 * (`builtToleDirs`). Each test makes its own folders with `tempDirs` (agent-fixtures.ts), which go when
 * the test ends, so no test sees another's files; the server's queue is the file's, as it was
 * when each file held its own copy of this.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { FaultPoint } from '../../src/core/session/agent-deps';
import { tempDirs, type TempDirs } from './agent-fixtures';
import { startChatServer, type ChatServer, type ChatServerOptions } from './chat-server';
import type { RestoreChildConfig } from './crash-restore-child';
import type { ChildConfig } from './crash-turn-child';
import type { ChildRun } from './spawn-node';
import { runChild } from './test-children';

export interface CrashFixture {
  /** The file's chat server; read it inside a test or hook (it starts in the file's `beforeAll`). */
  readonly server: ChatServer;
  /** Runs one turn (or the user's `!command`) in a child killed at `crashAt`; expects the SIGKILL. */
  crashTurn(config: Omit<ChildConfig, 'baseURL'>, crashAt: FaultPoint): Promise<ChildRun>;
  /** Restores the files to an entry in a child killed at `crashAt`; expects the SIGKILL. */
  crashRestore(config: Omit<RestoreChildConfig, 'baseURL'>, crashAt: FaultPoint): Promise<ChildRun>;
}

/** Registers the file's chat server (`beforeAll`/`afterAll`) and returns the crash helpers around it. */
export function crashFixture(options: ChatServerOptions): CrashFixture {
  let started: ChatServer | undefined;
  beforeAll(async () => {
    started = await startChatServer(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const server = (): ChatServer => {
    if (started === undefined) throw new Error("the crash fixture's chat server is read before its beforeAll ran");
    return started;
  };
  const crash = async (
    name: 'crash-turn-child' | 'crash-restore-child',
    config: object,
    crashAt: FaultPoint,
  ): Promise<ChildRun> => {
    const run = await runChild(name, [JSON.stringify({ baseURL: server().url, ...config })], {
      env: { ...process.env, TOLE_CRASH_AT: crashAt },
    });
    expect(run.signal, run.stderr).toBe('SIGKILL');
    return run;
  };
  return {
    get server() {
      return server();
    },
    crashTurn: (config, crashAt) => crash('crash-turn-child', config, crashAt),
    crashRestore: (config, crashAt) => crash('crash-restore-child', config, crashAt),
  };
}

/** A test's folders for the built tole (agent-fixtures' `tempDirs`), its environment (its home and tole's in them), and where its sessions go. */
export function builtToleDirs(prefix: string): { dirs: TempDirs; env: NodeJS.ProcessEnv; sessions: string } {
  const dirs = tempDirs(prefix);
  return {
    dirs,
    env: { PATH: process.env.PATH, HOME: dirs.parent, TOLE_HOME: dirs.home },
    sessions: join(dirs.home, 'sessions'),
  };
}
