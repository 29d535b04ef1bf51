/**
 * The entries of `git config --list --show-origin -z` listings, and where an include points.
 * An entry keeps the file git read it from (absolute), so that an include's path can be resolved
 * as git does: relative to the file that names it, `~/` in the home directory.
 */
import path from 'node:path';

/** One key of a config file: the file git read it from (absolute), and its value (null for a bare key). */
export interface ConfigEntry {
  readonly origin: string;
  readonly key: string;
  readonly value: string | null;
}

function splitItem(item: string): { key: string; value: string | null } {
  const newline = item.indexOf('\n');
  return newline < 0 ? { key: item, value: null } : { key: item.slice(0, newline), value: item.slice(newline + 1) };
}

/** `item` (`key\nvalue`, or a bare key) read from `origin`. */
export const entryOf = (origin: string, item: string): ConfigEntry => ({ origin, ...splitItem(item) });

/**
 * The entries of `--list --show-scope --show-origin -z` (a scope, an origin, then its item, in
 * turn) whose scope is one of `scopes` and that were read from a file; origins resolved from `cwd`.
 */
export function listedEntries(listing: string, scopes: ReadonlySet<string>, cwd: string): ConfigEntry[] {
  const items = listing.split('\0');
  const kept: ConfigEntry[] = [];
  for (let i = 0; i + 2 < items.length; i += 3) {
    const origin = items[i + 1]!;
    if (!scopes.has(items[i]!) || !origin.startsWith('file:')) continue;
    kept.push(entryOf(path.resolve(cwd, origin.slice('file:'.length)), items[i + 2]!));
  }
  return kept;
}

/** Where an include of `value`, named in the file `origin`, points; null when tole cannot tell. */
export function includeTarget(value: string, origin: string, home: string | undefined): string | null {
  if (value === '' || value.startsWith('%(')) return null;
  if (value === '~' || value.startsWith('~/')) return home ? path.join(home, value.slice(1)) : null;
  if (value.startsWith('~')) return null; // another user's home
  return path.resolve(path.dirname(origin), value);
}
