/**
 * Whether a path a command names may lead outside the workspace, read on the file system: by its
 * real path (a link the repository ships, `keys -> ../.ssh`, counts), and for a glob by what it
 * matches now, each match by its real path (a bounded listing; past the bound, it may). Written for
 * tole's own question (no library expands bash's globs against a folder and says where each match
 * leads); picomatch reads the pattern parts.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { isWithin, realOrResolved } from './path-outside-workspace';

/** Matches a glob may have before tole stops looking and takes it as leaving. */
const MAX_MATCHES = 2_000;

export function leavesWorkspace(workspaceRoot: string, written: string, glob: boolean): boolean {
  const inside = (candidate: string): boolean => isWithin(realOrResolved(candidate), workspaceRoot);
  const absolute = path.resolve(workspaceRoot, written);
  if (!glob) return !inside(absolute);
  const parts = absolute.split('/').filter((part) => part !== '');
  let found = ['/'];
  let seen = 0;
  for (const part of parts) {
    const next: string[] = [];
    const magic = /[*?[]/.test(part);
    // Compiled once per part, when the first folder to match in could be listed.
    let match: ((name: string) => boolean) | undefined;
    for (const dir of found) {
      if (!magic) {
        next.push(path.join(dir, part));
        continue;
      }
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      if (match === undefined) {
        try {
          match = picomatch(part, { bash: true, dot: part.startsWith('.') });
        } catch {
          return true;
        }
      }
      for (const name of names) {
        if (!match(name)) continue;
        seen += 1;
        if (seen > MAX_MATCHES) return true;
        next.push(path.join(dir, name));
      }
    }
    found = next;
  }
  // No match: bash passes the pattern on as it is written.
  if (found.length === 0) return !inside(absolute.replace(/[*?[].*$/, ''));
  return found.some((match) => !inside(match));
}
