import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * What a lock needs to know about processes: who this one is, and whether the process a lock
 * names is still the one that took it. A pid alone is not enough: pids are reused, and in a
 * container tole is pid 1 after every restart. The start time of a pid (from /proc) and the boot
 * id tell a reused pid apart. Behind an interface so that the simulator can run many "processes"
 * in one.
 */
export interface ProcessProbe {
  readonly pid: number;
  readonly host: string;
  /** The kernel's boot id: a lock from before a reboot is stale. Null where there is no /proc. */
  bootId(): string | null;
  /** This process's pid namespace (`pid:[4026531836]`): pids from another one mean nothing here. */
  pidNamespace(): string | null;
  /** True while some process has this pid (EPERM counts: it exists, owned by another user). */
  exists(pid: number): boolean;
  /** When the process with this pid started (clock ticks since boot), or null when it cannot be read. */
  startTime(pid: number): string | null;
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Field 22 of /proc/PID/stat; the command name (field 2) may hold spaces and parentheses, so count from its closing one. */
export function startTimeFromStat(stat: string): string | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const value = fields[19];
  return value !== undefined && /^\d+$/.test(value) ? value : null;
}

export const systemProbe: ProcessProbe = {
  pid: process.pid,
  host: hostname(),
  bootId: () => readProc('/proc/sys/kernel/random/boot_id')?.trim() || null,
  pidNamespace: () => {
    try {
      return readlinkSync('/proc/self/ns/pid');
    } catch {
      return null;
    }
  },
  exists: (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  startTime: (pid) => {
    const stat = readProc(`/proc/${pid}/stat`);
    return stat === null ? null : startTimeFromStat(stat);
  },
};
