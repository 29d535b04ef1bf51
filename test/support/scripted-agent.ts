/**
 * The set-up the turn-loop tests share: before each test of the file that calls
 * `scriptedAgentPerTest`, a local chat server (its replies scripted by the test with
 * `server.push`, or by the `defaultReply` or `respond` given here) and fresh temp directories; a
 * real Agent built over them when the test asks (agent-fixtures.ts); both gone after the test.
 */
import { afterEach, beforeEach } from 'vitest';
import { type AgentOptions, type BuiltAgent, buildAgent, type TempDirs, tempDirs } from './agent-fixtures';
import { type ChatServer, type ChatServerOptions, startChatServer } from './chat-server';

export interface ScriptedAgentOptions {
  /** How the server answers what the test did not push. */
  readonly server?: ChatServerOptions;
  /** The temp directories' name prefix. */
  readonly dirsPrefix?: string;
}

export interface ScriptedAgents {
  /** This test's chat server. */
  readonly server: ChatServer;
  /** This test's workspace, sessions directory and tole home. */
  readonly dirs: TempDirs;
  /** A real Agent over a new session in this test's directories, talking to this test's server. */
  agent(options?: Partial<AgentOptions>): BuiltAgent;
}

export function scriptedAgentPerTest(options: ScriptedAgentOptions = {}): ScriptedAgents {
  let server: ChatServer | null = null;
  let dirs: TempDirs | null = null;
  beforeEach(async () => {
    server = await startChatServer(options.server);
    dirs = tempDirs(options.dirsPrefix);
  });
  afterEach(async () => {
    await server?.close();
    dirs?.remove();
    server = null;
    dirs = null;
  });
  const current = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`assert: the ${what} exists only inside a test (beforeEach made it)`);
    return value;
  };
  return {
    get server() {
      return current(server, 'chat server');
    },
    get dirs() {
      return current(dirs, 'temp directories');
    },
    agent(more = {}) {
      const { root, sessions } = current(dirs, 'temp directories');
      return buildAgent({
        baseURL: current(server, 'chat server').url,
        sessionsDir: sessions,
        workspaceRoot: root,
        ...more,
      });
    },
  };
}
