import { statSync } from 'node:fs';
import { folderAtRest } from '../../src/core/tools/builtin/absent-path';

/**
 * Waits until `dir`'s last change is old enough for the write_file guard to tell a later change
 * from it (`folderAtRest`, read in the guard's order: the clock first, then the folder): a test of
 * "never made" starts from such a folder. It waits on that state, polled, not on a guessed time.
 */
export async function untilFolderAtRest(dir: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    const seenMs = Date.now();
    if (folderAtRest(statSync(dir, { bigint: true }).ctimeNs, seenMs)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${dir} never came to rest`);
}
