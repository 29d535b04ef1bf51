import type { StorageError as StorageErrorType } from '../core/storage/errors';
import { missingModuleMessage } from '../core/missing-module';
import { UsageError } from './args';
import type { MainIo } from './main-io';

/** What to do next, for the storage failures a user meets. */
function storageHint(error: StorageErrorType): string {
  const { path, line, ownRemedy } = error.details;
  if (ownRemedy) return '';
  if (error.kind === 'corrupt' && path && line && line > 1) {
    return ` (to recover what came before it: head -n ${line - 1} ${path} > recovered.jsonl, then tole --resume recovered.jsonl; tole check shows what the file holds)`;
  }
  if (error.kind === 'locked' && path)
    return ` (to read it while it is open: tole export ${path}, or tole --resume ${path} --read-only)`;
  if ((error.kind === 'not-committed' || error.kind === 'poisoned') && path) return diskHint(error, path);
  return '';
}

/** What to do after a commit the disk refused: the step was not kept, the ones before it were. */
function diskHint(error: StorageErrorType, path: string): string {
  const code = (error.details.cause as NodeJS.ErrnoException | undefined)?.code;
  const goOn = `tole --resume ${path} goes on from the last step kept`;
  if (code === 'ENOSPC' || code === 'EDQUOT') return ` (the disk is full: free some space, then ${goOn})`;
  if (code === 'EROFS') return ` (its file system is read-only now: once it is writable again, ${goOn})`;
  if (code === 'EIO')
    return ` (the disk reported an error: tole check ${path} shows what the file holds; then ${goOn})`;
  return '';
}

/**
 * The message and exit code for a failure. The error classes are loaded here, after the failure:
 * a command that threw one has loaded its module already (the same instance), and no start pays
 * for them otherwise.
 */
export async function reportError(error: unknown, io: MainIo): Promise<number> {
  if (error instanceof UsageError) {
    io.stderr.write(`tole: ${error.message}\n`);
    return 2;
  }
  // A chunk of the build that could not be loaded: say so before loading more of them.
  const missing = missingModuleMessage(error);
  if (missing !== null) {
    io.stderr.write(`tole: ${missing}\n`);
    return 1;
  }
  let classes: Awaited<ReturnType<typeof errorClasses>>;
  try {
    classes = await errorClasses();
  } catch (loadError) {
    io.stderr.write(`tole: ${missingModuleMessage(loadError) ?? String(loadError)}; the failure: ${describe(error)}\n`);
    return 1;
  }
  const [{ ConfigError }, { StorageError }, { ProviderError }, { SyncError }, { ToolRegistrationError }] = classes;
  if (error instanceof ConfigError) {
    io.stderr.write(`tole: ${error.message}\n`);
    return 2;
  }
  if (error instanceof StorageError) {
    io.stderr.write(`tole: ${error.message}${storageHint(error)}\n`);
    return 1;
  }
  if (error instanceof ProviderError) {
    io.stderr.write(`tole: ${error.message}${error.hint ? ` (${error.hint})` : ''}\n`);
    return 1;
  }
  if (error instanceof SyncError) {
    io.stderr.write(`tole: ${error.message}\n`);
    return error.kind === 'url' ? 2 : 1;
  }
  if (error instanceof ToolRegistrationError) {
    io.stderr.write(`tole: ${error.message}\n`);
    return 1;
  }
  const e = error as Error;
  io.stderr.write(`tole: internal error: ${describe(error)}\n${io.env['TOLE_DEBUG'] ? `${e?.stack}\n` : ''}`);
  return 1;
}

function describe(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

/** The error classes a failure is told apart by, loaded only once something failed. */
function errorClasses() {
  return Promise.all([
    import('./config'),
    import('../core/storage/errors'),
    import('../core/provider/errors'),
    import('../core/sync/database'),
    import('../core/tools/registry'),
  ]);
}
