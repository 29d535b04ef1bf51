/**
 * A child process for the restore crash test: opens a session and restores the workspace files to
 * an entry, with the CLI's fault hook (`TOLE_CRASH_AT=during-restore` SIGKILLs this process after
 * the restore's removals and before its writes).
 *
 * Usage: node --import tsx test/support/crash-restore-child.ts '<json RestoreChildConfig>'
 */
import { faultFromEnv } from '../../src/cli/wiring';
import { buildAgent } from './agent-fixtures';

export interface RestoreChildConfig {
  readonly baseURL: string;
  readonly sessionsDir: string;
  readonly sessionPath: string;
  readonly workspaceRoot: string;
  readonly checkpointHome: string;
  readonly entryId: string;
}

const config = JSON.parse(process.argv[2] ?? '{}') as RestoreChildConfig;
const fault = faultFromEnv(process.env);
const { agent, store } = buildAgent({ ...config, ...(fault ? { fault } : {}) });
const outcome = await agent.restoreFiles(config.entryId, () => {});
store.close();
process.stdout.write(`restore ${outcome.ok ? 'ok' : 'failed'}\n`);
