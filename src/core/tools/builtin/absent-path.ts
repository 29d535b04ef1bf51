import path from 'node:path';
import type { GuardVerdict } from '../tool';
import { toolFs } from '../tool-fs';
import type { WorkspacePath } from '../workspace';
import { isFsError, temporaryName } from './file-io';

/**
 * Stored with the intent of a call that creates a file where there was none: the deepest folder
 * of the path that existed then (relative to the workspace root), which folder it was (device,
 * inode, birth time), its change time, and the time read just before it was looked at. A file
 * made in that folder (tole renames its new file into place) changes the folder's change time,
 * which no one can set back, so while the folder still has the recorded one nothing was made in
 * it, provided its last change was old enough that a later one falls in a later tick of the clock.
 */
export interface AbsentPath {
  readonly folder: string;
  readonly id: string;
  readonly changedNs: string;
  readonly seenMs: number;
}

/** The margin on a file system with sub-second times: many ticks of the kernel's clock (1–10 ms each). */
const FINE_MARGIN_NS = 100_000_000n;
/** The margin on a file system with whole-second times (2 s ticks on FAT). */
const COARSE_MARGIN_NS = 4_000_000_000n;
const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;

/**
 * Whether a folder last changed at `changedNs` (its ctime), looked at no earlier than `seenMs`,
 * changed so long before that any later change must give it another change time: times on a
 * file system come from a clock that moves in ticks (a coarse one in Linux), and two changes in
 * one tick share a time. A change time in the future (a clock ahead of this one, a network file
 * system's server) is not at rest.
 */
export function folderAtRest(changedNs: bigint, seenMs: number): boolean {
  const seenNs = BigInt(Math.floor(seenMs)) * NS_PER_MS;
  const margin = changedNs % NS_PER_S === 0n ? COARSE_MARGIN_NS : FINE_MARGIN_NS;
  return changedNs + margin <= seenNs;
}

/** What to record for `target`, missing now: see `AbsentPath`; null when its folder cannot be looked at. */
export async function recordAbsence(target: WorkspacePath): Promise<AbsentPath | null> {
  if (target.found.kind !== 'missing') return null;
  // Read before the folder is looked at: a change after the look falls after this time.
  const seenMs = Date.now();
  const folder = await folderState(target);
  if (folder === null) return null;
  return { folder: path.relative(target.root, target.existingDirectory.absolutePath) || '.', seenMs, ...folder };
}

/**
 * Whether a call that was to create `target` (missing when the call was prepared, `recorded`)
 * never did, judged from the path missing again now: not done when the call's own temporary file
 * still stands beside it (the rename that makes the file never came), or when the folder is the
 * same one with the same change time and was at rest when recorded (nothing was made in it since);
 * unknown otherwise: the file may have been made by this call and deleted since (by the user, a
 * checkout, a restore), and making it again would undo that. `tag` is the call's id, which names
 * its temporary file.
 */
export async function absenceVerdict(target: WorkspacePath, recorded: unknown, tag: string): Promise<GuardVerdict> {
  const shown = target.relativePath;
  if (!isAbsentPath(recorded)) {
    return {
      unknown: `${shown} was not there when the call was prepared and is not there now, but the intent (from an older tole) records nothing to tell whether the call made it and someone deleted it since. Check whether ${shown} should exist and write it again if so`,
    };
  }
  if (target.missing.length === 1 && (await temporaryStands(target, tag))) return false;
  const now = await folderState(target);
  const folder = path.relative(target.root, target.existingDirectory.absolutePath) || '.';
  const same =
    now !== null &&
    folder === recorded.folder &&
    now.id === recorded.id &&
    now.changedNs === recorded.changedNs &&
    folderAtRest(BigInt(recorded.changedNs), recorded.seenMs);
  if (same) return false;
  const why =
    now !== null && folder === recorded.folder && now.id === recorded.id && now.changedNs === recorded.changedNs
      ? `its folder ${recorded.folder} had changed just before the call was prepared, too recently to tell a later change from it`
      : `its folder ${recorded.folder} changed since the call was prepared`;
  return {
    unknown: `${shown} was not there when the call was prepared and is not there now, but ${why}: the call may have made it and someone deleted it since (making it again would undo that). Check whether ${shown} should exist and write it again if so`,
  };
}

/** Which folder holds `target`'s deepest existing level now, and its change time; null when it cannot be looked at. */
async function folderState(target: WorkspacePath): Promise<{ id: string; changedNs: string } | null> {
  try {
    const stats = await toolFs().lstat(target.existingDirectory.absolutePath, { bigint: true });
    if (!stats.isDirectory()) return null;
    return { id: `${stats.dev}:${stats.ino}:${stats.birthtimeNs}`, changedNs: String(stats.ctimeNs) };
  } catch (error) {
    if (isFsError(error)) return null;
    throw error;
  }
}

/** Whether the call's temporary file (`writeFileDurably`'s) is a regular file in `target`'s folder. */
async function temporaryStands(target: WorkspacePath, tag: string): Promise<boolean> {
  const beside = path.join(path.dirname(target.absolutePath), temporaryName(path.basename(target.absolutePath), tag));
  try {
    return (await toolFs().lstat(beside)).isFile();
  } catch (error) {
    if (isFsError(error)) return false;
    throw error;
  }
}

function isAbsentPath(value: unknown): value is AbsentPath {
  if (typeof value !== 'object' || value === null) return false;
  const { folder, id, changedNs, seenMs } = value as Partial<Record<keyof AbsentPath, unknown>>;
  return (
    typeof folder === 'string' &&
    typeof id === 'string' &&
    typeof changedNs === 'string' &&
    /^\d+$/.test(changedNs) &&
    typeof seenMs === 'number' &&
    Number.isFinite(seenMs)
  );
}
