import { realpathSync } from 'node:fs';
import { seededRandom } from '../core/clock';
import { planLines } from '../core/checkpoints/plan-text';
import { FileRestorer } from '../core/session/file-restorer';
import { uncheckpointedWarning } from '../core/session/restore-files';
import { type PartlyRestored, SessionCommands, type Refusal } from '../core/session/session-commands';
import { StorageError } from '../core/storage/errors';
import { SessionStore } from '../core/storage/session-store';
import { UsageError, type CliArgs } from './args';
import { loadConfig } from './config';
import { openNotices, sessionWorkspace } from './open-session';
import { resolveSessionRef, sessionsDirectory } from './session-files';
import { RestoreStop } from './restore-stop';
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
  const store = openForRestore(path, ref, args.dryRun);
  const stop = new RestoreStop(io.stderr);
  try {
    for (const notice of openNotices(store)) io.stderr.write(`tole: ${notice}\n`);
    const workspace = sessionWorkspace(store, io.cwd);
    for (const notice of workspace.notices) io.stderr.write(`tole: ${notice}\n`);
    const fault = faultFromEnv(io.env);
    const restorer = new FileRestorer({
      store,
      checkpoints: checkpointsFor(io.env, config, realpathSync(workspace.cwd)),
      ...(fault ? { fault } : {}),
    });
    const commands = new SessionCommands(store, restorer, () => restorer.running);
    const refused = (refusal: Refusal | PartlyRestored): number => {
      io.stderr.write(`tole: ${refusalText(refusal, ref, args.entry!)}\n`);
      return 1;
    };
    // A restore a stop cut short changes the files again before this one: the user is told how it went.
    if (store.readOnly && restorer.cutShort > 0)
      io.stderr.write(
        `tole: a restore a stop cut short is not finished, so the files may be partly restored: tole restore without --dry-run runs it again to its end first\n`,
      );
    stop.listen();
    await restorer.resume((event) => {
      if (event.type === 'notice')
        io.stderr.write(`tole: a restore a stop cut short was run again first: ${event.text}\n`);
      else stop.emit(event);
    });
    stop.release();
    // A dry run is refused where the restore itself would be (its read-only view aside).
    const asked = args.dryRun ? commands.restoreRefusalOfState(args.entry) : commands.restoreRefusal(args.entry);
    if (asked) return refused(asked);
    const preview = await commands.previewRestore(args.entry);
    if (!preview.ok) return refused(preview);
    const head = `files at ${args.entry} (checkpoint ${preview.target.checkpoint.slice(0, 12)}, taken at ${preview.target.heldBy}) in ${workspace.cwd}`;
    const warning = uncheckpointedWarning(preview.target);
    if (warning) io.stderr.write(`tole: ${warning}\n`);
    io.stdout.write(
      `${head}\n${planLines(preview.plan, 50)
        .map((l) => `  ${l}`)
        .join('\n')}\n`,
    );
    if (args.dryRun) return 0;
    stop.listen();
    const outcome = await commands.restore(args.entry, stop.emit, stop.signal);
    if (!outcome.ok) {
      const code = refused(outcome);
      // Stopped before any file was written: the shell hears which signal stopped it.
      return outcome.reason === 'not-restored' && stop.stoppedBy !== null ? stop.stoppedBy.exitCode : code;
    }
    io.stdout.write(
      `restored: ${outcome.plan.added.length} created, ${outcome.plan.changed.length} overwritten, ${outcome.plan.removed.length} removed (to undo it: tole restore ${ref} --entry ${outcome.undoEntryId})\n`,
    );
    return 0;
  } finally {
    stop.release();
    store.close();
  }
}

/**
 * The session, opened to write unless only shown (`--dry-run`). Held by a running tole, the
 * restore belongs there: a read-only open, which the lock's own words offer, cannot restore.
 */
function openForRestore(path: string, ref: string, readOnly: boolean): SessionStore {
  try {
    return SessionStore.open(path, { clock, random: seededRandom(1), readOnly, lanesChecked: true });
  } catch (error) {
    if (!(error instanceof StorageError) || error.kind !== 'locked' || error.details.holder !== 'running') throw error;
    const { pid, host } = error.details;
    throw new StorageError(
      'locked',
      `session ${ref} is open in a running tole (pid ${pid} on ${host}): restore the files there (t for the tree, then u on the entry), or close that tole and run tole restore again; tole restore ${ref} --entry ENTRY --dry-run shows what would change meanwhile`,
      { ...error.details, cause: error, ownRemedy: true },
    );
  }
}

/**
 * A refusal in the words of the command line: the screen's words point at its tree and keys,
 * which `tole restore` has not.
 */
function refusalText(refusal: Refusal | PartlyRestored, ref: string, entryId: string): string {
  switch (refusal.reason) {
    case 'no-entry':
      return `no entry ${entryId} in session ${ref}: list its entry ids with tole export ${ref} --format json`;
    case 'partly-restored':
      return `${refusal.message} (tole restore ${ref} --entry ${refusal.undoEntryId})`;
    case 'turn-unsettled':
      return `a turn in this session was cut short and has calls not settled yet: open it once with tole --resume ${ref} (tole settles them on open), then restore`;
    default:
      return refusal.message;
  }
}
