/** Looking at processes from a test: whether one is alive, who is still alive in a process group, and waiting for a condition. */
import { readdirSync, readFileSync } from 'node:fs';

/** Live (non-zombie) processes whose process group is `pgid`, read from /proc. */
export function liveProcessesInGroup(pgid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] !== 'Z' && Number(fields[2]) === pgid) found.push(Number(name));
  }
  return found;
}

/** Polls `condition` every 10 ms (for at most 20 s): waits on a state, not on a guess of time. */
export async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Alive and not a zombie waiting for a parent that may never reap it. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

/** Polls until `pid` is gone; the 10 s bound only ends a failure (a loaded machine reaps late). */
export async function eventuallyDead(pid: number): Promise<boolean> {
  for (let i = 0; i < 500 && isAlive(pid); i += 1) await new Promise((r) => setTimeout(r, 20));
  return !isAlive(pid);
}
