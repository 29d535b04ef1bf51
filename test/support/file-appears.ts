import { existsSync, watch } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Resolves once `path` exists, woken by its directory's changes rather than by polling. A child
 * that reports through a file should write it whole elsewhere and rename it to `path`, so that the
 * file is complete when it appears.
 */
export function fileAppears(path: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), () => {
      if (existsSync(path)) {
        watcher.close();
        resolve();
      }
    });
    if (existsSync(path)) {
      watcher.close();
      resolve();
    }
  });
}
