import type { FileOps } from './file-ops';

/** A session's file name: `<unix-nanoseconds>-<hex>` and its backend's extension. */
const SESSION_FILE = /^(\d{1,30})-[0-9a-f]+\.(?:jsonl|db)$/;

/**
 * `id` (`<unix-nanoseconds>-<hex>`, newSessionId), or, when a session in `dir` has an id at or
 * after its time, the same suffix at a nanosecond after the newest there. Session ids sort by
 * creation: the newest is the one `tole --continue` goes on with and the sessions list shows
 * first. The wall clock stepped back since the last session was made (NTP correcting a clock
 * that ran ahead, a VM resumed from a snapshot) would otherwise give the new session an id older
 * than one made before it, and --continue would go on with that one. One listing of the folder
 * (names only); a fake without `namesIn` keeps `id` as it is.
 */
export function idAfterNewest(ops: FileOps, dir: string, id: string): string {
  const dash = id.indexOf('-');
  if (dash <= 0 || ops.namesIn === undefined) return id;
  let newest = -1n;
  let names: readonly string[];
  try {
    names = ops.namesIn(dir);
  } catch {
    // No folder yet (its create says so) or one that cannot be listed: no session there to follow.
    return id;
  }
  for (const name of names) {
    const match = SESSION_FILE.exec(name);
    if (match) {
      const ns = BigInt(match[1]!);
      if (ns > newest) newest = ns;
    }
  }
  const ns = BigInt(id.slice(0, dash));
  return ns > newest ? id : `${newest + 1n}${id.slice(dash)}`;
}
