import { linkSync, lstatSync, readdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { GitTarget } from './git-command';

/**
 * A scan's gits work on an index of the scan's own, and the scan publishes it as the directory's
 * `index` when it is done. Another tole's scan on the same workspace may run meanwhile, and its
 * `status` writes the index it read when it started (git takes the index's lock only after its
 * refresh, so what it writes may be older than what is there by then): in a shared index, it
 * could land between this scan's `update-index` and `write-tree`, and the tree would miss what
 * this scan staged. In an index of its own, nothing but this scan's gits writes.
 *
 * It starts as a hard link to `index`: the same entries at no cost, and the same file times
 * (git judges an entry whose file changed in the second its index was written by the index
 * file's mtime; a copy would be younger and hide such a change). git never writes an index in
 * place (it writes `<name>.lock` and renames it), so the link never changes `index` itself. Every
 * index tole ever publishes holds, for each entry, the bytes of a file whose stat data it
 * records; so whichever of two scans publishes last, the next scan finds every change.
 */
export async function withOwnIndex<T>(
  target: GitTarget,
  work: (target: GitTarget, startedFrom: string | null) => Promise<T>,
): Promise<{ readonly done: T; readonly published: string | null }> {
  const dir = target.gitDir;
  const own = join(dir, `${OWN_PREFIX}${process.pid}-${++made}${namespaceTail()}`);
  try {
    linkSync(join(dir, 'index'), own);
  } catch (error) {
    // No index yet (the first scan): git starts the scan's own from nothing.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    const done = await work({ ...gitTarget(target), indexFile: own }, indexIdentity(own));
    // The file keeps its identity through the rename: this is the index the next scan may start from.
    const published = indexIdentity(own);
    renameIfThere(own, join(dir, 'index'));
    return { done, published };
  } finally {
    rmSync(own, { force: true });
    rmSync(`${own}.changed`, { force: true });
  }
}

/**
 * Which index file this is (device, inode, modification time in nanoseconds, size), or null when
 * there is none: git never changes an index file in place, so two index files with one identity
 * hold the same entries. (Not the change time: the link and the rename change it.)
 */
export function indexIdentity(path: string): string | null {
  const stat = lstatSync(path, { throwIfNoEntry: false, bigint: true });
  return stat ? `${stat.dev}:${stat.ino}:${stat.mtimeNs}:${stat.size}` : null;
}

/**
 * Removes the own indexes (and their lock files) of toles that are gone: one killed mid-scan leaves
 * its own. A name carries its tole's pid and pid namespace: a tole in another namespace (a
 * container, `unshare -p`) numbers its pid there, and that number means another process, or none,
 * here: such a one is kept (a file left over by a killed tole of another namespace, never a
 * scan's index removed from under it, which made that scan's checkpoint an empty tree).
 */
export function removeOwnIndexesLeftBehind(dir: string): void {
  const here = ownNamespace();
  for (const name of readdirSync(dir)) {
    const found = OWN_NAME.exec(name);
    if (found === null) continue;
    const [pid, namespace] = [Number(found[1]), found[2]];
    if ((namespace === undefined || namespace === here) && !running(pid)) rmSync(join(dir, name), { force: true });
  }
}

const OWN_PREFIX = 'index.tole-';
/** `index.tole-PID-N`, then `-NAMESPACE` (its pid namespace's inode) where /proc tells it, then `.lock` or `.changed`. */
const OWN_NAME = /^index\.tole-(\d+)-\d+(?:-(\d+))?(?:\.lock|\.changed)?$/;

/** This process's pid namespace's inode (`pid:[4026531836]`), or undefined without /proc. */
function ownNamespace(): string | undefined {
  try {
    return /^pid:\[(\d+)\]$/.exec(readlinkSync('/proc/self/ns/pid'))?.[1];
  } catch {
    return undefined;
  }
}

/** The namespace part of an own index's name. */
function namespaceTail(): string {
  const namespace = ownNamespace();
  return namespace === undefined ? '' : `-${namespace}`;
}

/** Own indexes made in this process, for their names. */
let made = 0;

/** The target's fields as plain values (its gitDir may be a getter, which a spread would not keep lazily). */
function gitTarget(target: GitTarget): GitTarget {
  return {
    gitDir: target.gitDir,
    workTree: target.workTree,
    binary: target.binary,
    path: target.path,
    ...(target.lockWaitsMs ? { lockWaitsMs: target.lockWaitsMs } : {}),
  };
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    // The scan wrote no index (nothing to stage in an empty workspace): there is nothing to publish.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
