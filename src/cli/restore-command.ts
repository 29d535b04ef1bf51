import { realpathSync } from 'node:fs';
import { seededRandom } from '../core/clock';
import { planLines } from '../core/checkpoints/plan-text';
import { NS } from '../core/registers/namespaces';
import { previewRestore, restoreFiles, resumeRestore } from '../core/session/restore-files';
import type { PendingIntent } from '../core/session/tool-step';
import { StorageError } from '../core/storage/errors';
import { SessionStore } from '../core/storage/session-store';
import { UsageError, type CliArgs } from './args';
import { loadConfig } from './config';
import { openNotices, sessionWorkspace } from './open-session';
import { resolveSessionRef, sessionsDirectory } from './session-files';
import { checkpointsFor, clock, faultFromEnv } from './wiring';

interface RestoreIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/**
 * `tole restore ID|PATH --entry ENTRY [--dry-run]`: brings the session's workspace files back to
 * how they were at an entry (a checkpoint of the files as they are now is taken first, so this
 * can be undone with another restore). `--dry-run` prints what would change and changes nothing.
 */
export async function runRestore(args: CliArgs, io: RestoreIo): Promise<number> {
  const ref = args.positional[0];
  if (!ref || args.entry === undefined)
    throw new UsageError(
      'tole restore needs a session and an entry: tole restore ID|PATH --entry ENTRY [--dry-run] (entry ids: tole export ID|PATH --format json)',
    );
  const { config } = loadConfig(io.cwd, io.env, { explicit: args.config, trust: args.trust });
  if (config.checkpoints?.enabled === false)
    throw new UsageError(
      'checkpoints are turned off in the config (checkpoints.enabled: false): there is nothing to restore from',
    );
  const path = resolveSessionRef(ref, sessionsDirectory(io.env, config.sessionsDir), io.cwd);
  if (!path) throw new StorageError('not-found', `no session "${ref}"; list them with tole sessions`);
  const store = SessionStore.open(path, { clock, random: seededRandom(1), readOnly: args.dryRun });
  try {
    for (const notice of openNotices(store)) io.stderr.write(`tole: ${notice}\n`);
    const workspace = sessionWorkspace(store, io.cwd);
    for (const notice of workspace.notices) io.stderr.write(`tole: ${notice}\n`);
    const fault = faultFromEnv(io.env);
    const deps = {
      store,
      checkpoints: checkpointsFor(io.env, config, realpathSync(workspace.cwd)),
      ...(fault ? { fault } : {}),
    };
    const emit = (): void => {};
    // A restore a crash cut short is finished first: it is idempotent.
    if (!store.readOnly) {
      for (const [, cell] of store.registers.entries(NS.pending)) {
        const intent = cell.value as PendingIntent;
        if (intent.kind === 'restore') await resumeRestore(deps, intent, emit);
      }
    }
    const preview = await previewRestore(deps, args.entry);
    if (!preview.ok) {
      io.stderr.write(`tole: ${preview.reason}\n`);
      return 1;
    }
    const head = `files at ${args.entry} (checkpoint ${preview.target.checkpoint.slice(0, 12)}, taken at ${preview.target.heldBy}) in ${workspace.cwd}`;
    io.stdout.write(
      `${head}\n${planLines(preview.plan, 50)
        .map((l) => `  ${l}`)
        .join('\n')}\n`,
    );
    if (args.dryRun) return 0;
    const outcome = await restoreFiles(deps, args.entry, emit);
    if (!outcome.ok) {
      io.stderr.write(`tole: ${outcome.reason}\n`);
      return 1;
    }
    io.stdout.write(
      `restored: ${outcome.plan.added.length} created, ${outcome.plan.changed.length} overwritten, ${outcome.plan.removed.length} removed (to undo it: tole restore ${ref} --entry ${outcome.undoEntryId})\n`,
    );
    return 0;
  } finally {
    store.close();
  }
}
