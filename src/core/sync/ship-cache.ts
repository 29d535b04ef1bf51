/**
 * What the last sync to one server saw of each file (size and mtime of the file, its SQLite
 * write-ahead log and its lock), so that a sync replays only the files that changed since. It is
 * only a cache: the server's cursor stays the truth (a file is skipped only when the server's
 * cursor is still the one recorded), and a lost or garbled cache costs one full replay.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { lockPathFor } from '../storage/lock-file';

interface Seen {
  readonly fingerprint: string;
  readonly shippedSeq: number;
}

function statPart(path: string): string {
  try {
    const s = statSync(path);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return '-';
  }
}

export function fingerprintOf(path: string): string {
  return [statPart(path), statPart(`${path}-wal`), statPart(lockPathFor(path))].join('|');
}

export class ShipCache {
  private readonly seen: Record<string, Seen>;

  private constructor(
    private readonly file: string,
    seen: Record<string, Seen>,
  ) {
    this.seen = seen;
  }

  /** The cache for `serverKey` (a URL without its password) in `sessionsDir/.sync/`. */
  static open(sessionsDir: string, serverKey: string): ShipCache {
    const name = createHash('sha256').update(serverKey).digest('hex').slice(0, 16);
    const file = join(sessionsDir, '.sync', `${name}.json`);
    let seen: Record<string, Seen> = {};
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (parsed && typeof parsed === 'object') seen = parsed as Record<string, Seen>;
    } catch {
      // None yet, or unreadable: every file is read once.
    }
    return new ShipCache(file, seen);
  }

  /** True when the file is as it was when the server's cursor was last seen at `cursor`. */
  unchanged(path: string, cursor: number): boolean {
    const seen = this.seen[path];
    return seen !== undefined && seen.shippedSeq === cursor && seen.fingerprint === fingerprintOf(path);
  }

  /** `fingerprint` is taken before the file was read, so that a commit made during the read is not hidden. */
  record(path: string, fingerprint: string, shippedSeq: number): void {
    this.seen[path] = { fingerprint, shippedSeq };
  }

  save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.seen));
    renameSync(temp, this.file);
  }
}
