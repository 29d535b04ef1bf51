/**
 * When a bubblewrap sandbox has ended: every process in its pid namespace gone. bwrap exits as
 * soon as the command it ran exits, while the namespace's first process (the one whose exit has the
 * kernel kill every other process in it) may still be ending, and a process the command left in the
 * background can still write the workspace in that gap. What tole checks in the workspace after a
 * confined run (git-left-behind.ts) waits for this first. bwrap names that process's pid on its
 * `--info-fd` (`"child-pid"`); the kernel makes it a zombie, or reaps it, only after every other
 * process of the namespace is gone, so the wait is over once its /proc entry is gone, a zombie, or
 * another process's (a different start time). A namespace still alive past the bound is killed
 * through that process (SIGKILL to it kills the rest), which tole started.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long the namespace may take to end on its own, then after the kill. */
const END_WAIT_MS = 2_000;
const KILLED_WAIT_MS = 2_000;
/** Between two looks at /proc: the kernel gives no event for another process's end. */
const LOOK_EVERY_MS = 5;

/** The pid of the namespace's first process, from what bwrap wrote on its info descriptor; null when none. */
export function sandboxChildPid(info: string): number | null {
  const match = /"child-pid"\s*:\s*(\d+)/.exec(info);
  return match ? Number(match[1]) : null;
}

/** The process's start time and state from /proc; null once it is gone. */
function processState(pid: number): { start: string; state: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is the first, start time the 20th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', start: fields[19] ?? '' };
  } catch {
    return null;
  }
}

/**
 * Resolves once the namespace whose first process is `pid` has ended (true), or with false when
 * it outlived the kill too. A pid given after the process was already reaped is gone at once.
 */
export async function sandboxEnded(pid: number): Promise<boolean> {
  const first = processState(pid);
  if (first === null || first.state === 'Z') return true;
  const ended = (): boolean => {
    const now = processState(pid);
    return now === null || now.state === 'Z' || now.start !== first.start;
  };
  if (await waitFor(ended, END_WAIT_MS)) return true;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return true; // ESRCH: gone between the look and the kill
  }
  return waitFor(ended, KILLED_WAIT_MS);
}

async function waitFor(done: () => boolean, boundMs: number): Promise<boolean> {
  for (let waited = 0; waited <= boundMs; waited += LOOK_EVERY_MS) {
    if (done()) return true;
    await sleep(LOOK_EVERY_MS);
  }
  return done();
}
