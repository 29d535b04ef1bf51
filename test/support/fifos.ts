import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Makes each of `paths` under `root` a FIFO, with its folders, by mkfifo (a program: node has no mkfifo). */
export function fifos(root: string, paths: readonly string[]): void {
  for (const p of paths) mkdirSync(join(root, p, '..'), { recursive: true });
  execFileSync(
    '/usr/bin/mkfifo',
    paths.map((p) => join(root, p)),
  );
}
