import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../core/lazy';
import { fsyncDirectory, nodeFileOps } from '../core/storage/file-ops';

/**
 * The folders the user has trusted, each with the hash of the project config it trusted:
 * `trusted-folders.json` beside the user's config. A folder whose config has changed since is
 * untrusted again, so an edit (by a pull, or by a command the model ran) asks again.
 */
const storeSchema = lazySchema((z) =>
  z.strictObject({
    version: z.literal(1),
    folders: z.record(
      z.string(),
      z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/), trustedAt: z.string() }),
    ),
  }),
);

type StoreFile = z.infer<ReturnType<typeof storeSchema>>;

export function trustStorePath(userConfigFile: string): string {
  return join(dirname(userConfigFile), 'trusted-folders.json');
}

/** What trust is keyed by: the folder's real path and the sha256 of the project config's bytes. */
export interface FolderFingerprint {
  readonly folder: string;
  readonly sha256: string;
}

/**
 * The SHA-256 of no bytes: what a folder without a project config is keyed by. Every start in
 * such a folder asks for it, and hashing would load the crypto module (~5 ms) before the first frame.
 */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export function fingerprint(folder: string, configBytes: Buffer): FolderFingerprint {
  const sha256 = configBytes.length === 0 ? EMPTY_SHA256 : createHash('sha256').update(configBytes).digest('hex');
  return { folder: realpathSync(folder), sha256 };
}

export class TrustStore {
  private constructor(readonly path: string) {}

  static at(path: string): TrustStore {
    return new TrustStore(path);
  }

  isTrusted(print: FolderFingerprint): boolean {
    return this.read().folders[print.folder]?.sha256 === print.sha256;
  }

  /** Records the trust whole and durably (temp file, fsync, rename, fsync of the directory). */
  trust(print: FolderFingerprint, nowIso: string): void {
    const current = this.read();
    const next: StoreFile = {
      version: 1,
      folders: { ...current.folders, [print.folder]: { sha256: print.sha256, trustedAt: nowIso } },
    };
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(next, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.path);
    fsyncDirectory(nodeFileOps, dirname(this.path));
  }

  /** A missing store trusts nothing; a damaged one also trusts nothing (and is replaced on the next trust). */
  private read(): StoreFile {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return { version: 1, folders: {} };
    }
    try {
      const parsed = storeSchema().safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : { version: 1, folders: {} };
    } catch {
      return { version: 1, folders: {} };
    }
  }
}
