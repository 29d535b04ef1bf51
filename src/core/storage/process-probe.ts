import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
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
  /**
   * Looks for the process that is `pid` inside another pid namespace (a container, `unshare -p`)
   * from here. Absent: tole cannot look (it is then `unseen`).
   */
  locate?(namespace: string, pid: number): Located;
}

/**
 * Where a pid of another pid namespace stands, seen from this one: `found` (with its start time),
 * `absent` (that namespace is visible and has no such pid, or it is gone and this process sees
 * every process of the machine), or `unseen` (the namespace is not visible from here: an
 * ancestor's, a sibling's, or processes tole may not inspect).
 */
type Located =
  | { readonly state: 'found'; readonly startTime: string | null }
  | { readonly state: 'absent' }
  | { readonly state: 'unseen' };

function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Field 3 of /proc/PID/stat: Z (zombie) and X (dead) are processes that ended and hold nothing. */
function hasEnded(stat: string): boolean {
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

/** Field 22 of /proc/PID/stat; the command name (field 2) may hold spaces and parentheses, so count from its closing one. */
function startTimeFromStat(stat: string): string | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const value = fields[19];
  return value !== undefined && /^\d+$/.test(value) ? value : null;
}

/** The last field of `NSpid:` in /proc/PID/status: the pid as its own namespace numbers it. */
function innermostPid(status: string): number | null {
  const line = status.split('\n').find((l) => l.startsWith('NSpid:'));
  const last = line?.slice('NSpid:'.length).trim().split(/\s+/).pop();
  return last !== undefined && /^\d+$/.test(last) ? Number(last) : null;
}

/**
 * The machine's first pid namespace, which sees every process: the kernel gives it this fixed
 * inode (PROC_PID_INIT_INO). NSpid cannot tell: it numbers namespaces from the one /proc was
 * mounted for, so a container's own /proc shows one field too.
 */
const INITIAL_PID_NAMESPACE = 'pid:[4026531836]';

function inThisNamespace(pid: string): boolean {
  const line = readProc(`/proc/${pid}/status`)
    ?.split('\n')
    .find((l) => l.startsWith('NSpid:'));
  return line !== undefined && line.slice('NSpid:'.length).trim().split(/\s+/).length === 1;
}

/** Scans /proc for the process numbered `pid` in `namespace`; see Located. */
function locateInProc(namespace: string, pid: number): Located {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return { state: 'unseen' };
  }
  let seen = false;
  let complete = true;
  for (const entry of entries) {
    let ns: string;
    try {
      ns = readlinkSync(`/proc/${entry}/ns/pid`);
    } catch (error) {
      // A process that ended meanwhile is no loss; one tole may not inspect could be the holder,
      // unless its status shows it lives in this namespace (one NSpid field).
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !inThisNamespace(entry)) complete = false;
      continue;
    }
    if (ns !== namespace) continue;
    seen = true;
    const status = readProc(`/proc/${entry}/status`);
    if (status === null || innermostPid(status) !== pid) continue;
    const stat = readProc(`/proc/${entry}/stat`);
    if (stat !== null && hasEnded(stat)) continue;
    return { state: 'found', startTime: stat === null ? null : startTimeFromStat(stat) };
  }
  if (seen || (complete && ownPidNamespace() === INITIAL_PID_NAMESPACE)) return { state: 'absent' };
  return { state: 'unseen' };
}

function ownPidNamespace(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

export const systemProbe: ProcessProbe = {
  pid: process.pid,
  host: hostname(),
  bootId: () => readProc('/proc/sys/kernel/random/boot_id')?.trim() || null,
  pidNamespace: ownPidNamespace,
  exists: (pid) => {
    try {
      process.kill(pid, 0);
      const stat = readProc(`/proc/${pid}/stat`);
      return stat === null || !hasEnded(stat);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  startTime: (pid) => {
    // This process's own entry by /proc/self: under `unshare -p -f` without --mount-proc, /proc is
    // the outer namespace's, where this process's own pid (1) names another process.
    const stat = readProc(pid === process.pid ? '/proc/self/stat' : `/proc/${pid}/stat`);
    return stat === null ? null : startTimeFromStat(stat);
  },
  locate: locateInProc,
};
