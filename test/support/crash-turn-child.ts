/**
 * A child process for the crash-resume tests: builds the Agent with the built-ins plus the four
 * marker tools (three Write, one ReadOnly) and the fault hook of the CLI (`TOLE_CRASH_AT` SIGKILLs this process at that point
 * of the next tool call), then runs one turn against the given chat server (or the user's
 * `!command` given as `shell`).
 *
 * Usage: node --import tsx test/support/crash-turn-child.ts '<json ChildConfig>'
 * Prints `session <path>` once the session file exists, and `turn <outcome>` if it lives that long.
 */
import type { Approver } from '../../src/core/approval/approver';
import { faultFromEnv } from '../../src/cli/wiring';
import type { HooksConfig } from '../../src/core/hooks/hook-config';
import { HookRunner } from '../../src/core/hooks/hook-runner';
import { buildAgent, markerTools, readMarkerTool } from './agent-fixtures';

export interface ChildConfig {
  readonly baseURL: string;
  readonly sessionsDir: string;
  readonly workspaceRoot: string;
  readonly prompt: string;
  /**
   * True: an interactive policy with no rules, so the marker calls wait for the approver (which
   * approves) after their intent is committed. False: headless, allow rules approve the markers
   * in the intent itself.
   */
  readonly interactive: boolean;
  /** A temp tole home: checkpoints are taken before each marker call. */
  readonly checkpointHome?: string;
  /** Allow rules beyond the markers' (headless), e.g. `edit_file`. */
  readonly rules?: readonly string[];
  /** Shell hooks run in the workspace (e.g. a preToolUse hook that changes the file a call edits). */
  readonly hooks?: HooksConfig;
  /** Runs this as the user's `!command` (Agent.runShell) instead of the prompt's turn. */
  readonly shell?: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
const approveAll: Approver = { decide: async () => ({ approved: true, by: 'user' }) };
const fault = faultFromEnv(process.env);
const { agent, store } = buildAgent({
  baseURL: config.baseURL,
  sessionsDir: config.sessionsDir,
  workspaceRoot: config.workspaceRoot,
  extraTools: [...markerTools(), readMarkerTool()],
  policy: config.interactive
    ? { interactive: true }
    : { rules: ['marker_idempotent', 'marker_guarded', 'marker_never', ...(config.rules ?? [])] },
  approver: config.interactive ? approveAll : null,
  ...(fault ? { fault } : {}),
  ...(config.checkpointHome ? { checkpointHome: config.checkpointHome } : {}),
  ...(config.hooks ? { deps: { hooks: HookRunner.create({ config: config.hooks, cwd: config.workspaceRoot }) } } : {}),
});
process.stdout.write(`session ${store.path}\n`);
const signal = new AbortController().signal;
const result =
  config.shell === undefined
    ? await agent.runTurn(config.prompt, signal, () => {})
    : await agent.runShell(config.shell, signal, () => {});
store.close();
process.stdout.write(`turn ${result.outcome}\n`);
