/** What a failed storage call threw, and what tole tells the user of it (tests of disk errors). */
import { PassThrough } from 'node:stream';
import { reportError } from '../../src/cli/report-error';
import { isStorageError, type StorageError } from '../../src/core/storage/errors';

/** The storage error `run` throws; any other outcome fails the test. */
export function caughtStorageError(run: () => unknown): StorageError {
  try {
    run();
  } catch (error) {
    if (isStorageError(error)) return error;
    throw new Error(`not a storage error: ${String(error)}`);
  }
  throw new Error('it did not fail');
}

/** What tole prints on stderr for `error`, as its command line reports a failure. */
export async function toldUser(error: unknown): Promise<string> {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  await reportError(error, { argv: [], env: {}, cwd: '/', stdout: new PassThrough(), stderr });
  return text;
}
