import { existsSync, openSync, readSync, closeSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { SessionHeader } from '../core/storage/records';
import { readSqliteHeader } from '../core/storage/sqlite-storage';
import { summariseSession } from '../core/session/session-summary';
import type { SessionStore } from '../core/storage/session-store';
import { clock } from './wiring';
import { toleHome } from './tole-home';

/** Where sessions live: `sessionsDir` from config, else `$TOLE_HOME/sessions`, else `~/.tole/sessions`. */
export function sessionsDirectory(env: NodeJS.ProcessEnv, configured?: string): string {
  if (configured) return resolve(configured.replace(/^~(?=$|\/)/, env['HOME'] || homedir()));
  return join(toleHome(env), 'sessions');
}

interface SessionFileInfo {
  readonly path: string;
  readonly header: SessionHeader;
  readonly mtimeMs: number;
}

/** The first line of a session file, parsed; null when it is not a tole session. */
function readHeader(path: string): SessionHeader | null {
  if (path.endsWith('.db')) return readSqliteHeader(path);
  let fd: number | undefined;
  try {
    // A FIFO would block the open until a writer came: only a regular file can be a session.
    if (!statSync(path).isFile()) return null;
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const end = buffer.subarray(0, n).indexOf(0x0a);
    if (end === -1) return null;
    const header = JSON.parse(buffer.toString('utf8', 0, end)) as SessionHeader;
    return header?.kind === 'header' ? header : null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Session files, newest first (ids sort by creation time). */
export function listSessionFiles(dir: string): SessionFileInfo[] {
  if (!existsSync(dir)) return [];
  const found: SessionFileInfo[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.jsonl') && !name.endsWith('.db')) continue;
    const path = join(dir, name);
    const header = readHeader(path);
    if (header) found.push({ path, header, mtimeMs: statSync(path).mtimeMs });
  }
  return found.sort((a, b) => (a.header.id < b.header.id ? 1 : a.header.id > b.header.id ? -1 : 0));
}

/** Files that look like sessions by name but whose header cannot be read: listed, never hidden. */
export function unreadableSessionFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl') || name.endsWith('.db'))
    .map((name) => join(dir, name))
    .filter((path) => readHeader(path) === null)
    .sort();
}

/** `ID` (in the sessions directory, a unique prefix is enough) or a path to a file. */
export function resolveSessionRef(ref: string, dir: string, cwd: string): string | null {
  const asPath = isAbsolute(ref) ? ref : resolve(cwd, ref);
  if ((ref.includes('/') || ref.endsWith('.jsonl') || ref.endsWith('.db')) && existsSync(asPath)) return asPath;
  for (const exact of [join(dir, `${ref}.jsonl`), join(dir, `${ref}.db`)]) if (existsSync(exact)) return exact;
  const matches = listSessionFiles(dir).filter((s) => s.header.id.startsWith(ref));
  if (matches.length === 1) return matches[0]!.path;
  return existsSync(asPath) ? asPath : null;
}

/**
 * The newest session of `cwd` that holds something: one opened and left without a prompt is
 * nothing to continue (a file that cannot be read is still taken, so opening it says why).
 */
export function newestSessionIn(dir: string, cwd: string): string | null {
  for (const info of listSessionFiles(dir)) {
    // A sub-agent is continued through its parent, not on its own.
    if (info.header.cwd !== cwd || info.header.parent?.task) continue;
    const summary = summariseSession(info, clock);
    if (summary.entries > 0 || summary.problem !== null) return info.path;
  }
  return null;
}

/** Nothing was ever committed to it but the header: no entry, no usage row. */
export function isUnused(store: SessionStore): boolean {
  return store.tree.size === 0 && store.usage.length === 0;
}

/**
 * Removes a session this tole made and left unused (opened, quit without a prompt), so that
 * such starts do not pile up empty files. The store must be closed already.
 */
export function discardUnused(store: SessionStore, created: boolean): boolean {
  if (!created || store.readOnly || !isUnused(store)) return false;
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${store.path}${suffix}`, { force: true });
  return true;
}
