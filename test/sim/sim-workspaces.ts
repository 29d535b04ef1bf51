/**
 * The simulator's real workspace directories (edit_file works on real files), in memory where the
 * machine has /dev/shm. Each is named for the process that made it, `tole-sim-<pid>-XXXXXX`: the
 * process removes its own at exit, but a vitest fork killed with SIGKILL runs no exit handler, so
 * making a workspace first removes those whose process is gone.
 */
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where workspaces go unless a caller names a place. */
export function workspaceBase(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

const OWNED = /^tole-sim-(\d+)-/;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process is there, someone else's.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Removes the workspaces under `base` whose process is gone; returns their paths. */
export function sweepOrphanWorkspaces(base: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(base)) {
    const owner = OWNED.exec(name);
    if (owner === null || processAlive(Number(owner[1]))) continue;
    const path = join(base, name);
    rmSync(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}

/** A new empty workspace under `base` (its real path), removed when this process exits. */
export function makeWorkspace(base: string = workspaceBase()): string {
  sweepOrphanWorkspaces(base);
  const dir = realpathSync(mkdtempSync(join(base, `tole-sim-${process.pid}-`)));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
