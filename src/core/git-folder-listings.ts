/**
 * Folder listings the workspace walk (git-nested-dirs.ts) read before, kept so that a walk of an
 * unchanged workspace lists no folder again: before each bash call it would otherwise list every
 * folder of the workspace (a checkout with node_modules: ~1,300 listings, ~30 ms), twice per
 * approved call. A listing is used again only while the folder is the one it was read from, and
 * unchanged since: the same device and inode (a folder swapped for another, or a path now leading
 * elsewhere, is another inode), the same mtime (set when an entry is added, removed or renamed in
 * it) and the same ctime (set with mtime, and by a chmod, a chown or a rename of the folder itself;
 * no call sets it back, so `touch -d` on the folder cannot hide an entry added). Anything else
 * reads it again.
 *
 * A change made in the same clock tick as the last change before a listing leaves mtime and
 * ctime as they were, so a listing is kept only when the folder's last change is older than the
 * listing by a margin: two ticks of the file system's clock at least, whose granularity its times
 * show (whole seconds on some file systems, 2 s on FAT). A folder changed just before it was
 * listed is listed again on every walk until it has been still for that long. A file system whose
 * clock runs behind this machine's by more than the margin (a network share) could have a change
 * share the tick of the listing's mtime; that is not guarded against.
 */
import { type Dirent, readdirSync, statSync } from 'node:fs';

/** What the walk needs of a folder's entries. */
export interface FolderListing {
  /** It holds HEAD and config: a git directory, bare or not. */
  readonly gitDir: boolean;
  /** It holds a `.git`: a work tree. */
  readonly dotGit: boolean;
  /** Its folders and symlinks (the walk follows one to a folder), in the order the folder lists them. */
  readonly children: readonly { readonly name: string; readonly link: boolean }[];
}

/** A folder that could not be listed, and why (an errno code such as EACCES). */
export interface UnlistedFolder {
  readonly code: string;
}

/** What tells a folder from another, and a change in it. */
interface FolderStat {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

interface Kept extends FolderStat {
  readonly listing: FolderListing;
}

/** Listings kept at most; past it all are dropped (a walk reads at most 10,000 folders). */
const KEPT_MAX = 50_000;
/** The margin on a file system with sub-second times: many ticks of the kernel's clock (1–10 ms each). */
const FINE_MARGIN_MS = 100n;
/** The margin on a file system with whole-second times (2 s ticks on FAT). */
const COARSE_MARGIN_MS = 4_000n;
const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;

const kept = new Map<string, Kept>();

/** The listing of `dir`: the one read before when the folder is unchanged since, else read now. */
export function folderListing(dir: string): FolderListing | UnlistedFolder {
  // The time is taken before the folder is looked at: a change after it falls in a later tick.
  const listedAtNs = BigInt(Date.now()) * NS_PER_MS;
  const before = kept.get(dir);
  if (before !== undefined) {
    let stat: FolderStat | null;
    try {
      stat = statFolder(dir);
    } catch {
      stat = null;
    }
    if (stat !== null && sameFolder(before, stat)) return before.listing;
    kept.delete(dir);
  }
  let dirents: Dirent[];
  let stat: FolderStat;
  try {
    dirents = readdirSync(dir, { withFileTypes: true });
    // Looked at after the listing: a change during it, or a folder swapped in, moved ctime past the margin.
    stat = statFolder(dir);
  } catch (error) {
    return { code: errorCode(error) };
  }
  const names = new Set(dirents.map((entry) => entry.name));
  const listing: FolderListing = {
    gitDir: names.has('HEAD') && names.has('config'),
    dotGit: names.has('.git'),
    children: dirents
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => ({ name: entry.name, link: entry.isSymbolicLink() })),
  };
  if (settled(stat, listedAtNs)) {
    if (kept.size >= KEPT_MAX) kept.clear();
    kept.set(dir, { ...stat, listing });
  }
  return listing;
}

/** Whether a listing of `dir` is kept, to be used again while the folder is unchanged. */
export function isListingKept(dir: string): boolean {
  return kept.has(dir);
}

/** Forgets every listing kept (a test that must read the disk afresh). */
export function forgetFolderListings(): void {
  kept.clear();
}

function statFolder(dir: string): FolderStat {
  const stat = statSync(dir, { bigint: true });
  return { dev: stat.dev, ino: stat.ino, mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs };
}

const sameFolder = (a: FolderStat, b: FolderStat): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

/**
 * Whether the folder's last change is old enough that a change after `listedAtNs` must move its
 * mtime or ctime. Times in the future (a clock ahead of this one) are not.
 */
function settled(stat: FolderStat, listedAtNs: bigint): boolean {
  const wholeSeconds = stat.mtimeNs % NS_PER_S === 0n && stat.ctimeNs % NS_PER_S === 0n;
  const margin = (wholeSeconds ? COARSE_MARGIN_MS : FINE_MARGIN_MS) * NS_PER_MS;
  const last = stat.mtimeNs > stat.ctimeNs ? stat.mtimeNs : stat.ctimeNs;
  return last + margin < listedAtNs;
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? code : 'an error';
}
