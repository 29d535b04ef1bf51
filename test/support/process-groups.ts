/** Looking at processes from a test: who is still alive in a process group, and waiting for a condition. */
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
