import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import { lazySchema } from '../core/lazy';
import { fsyncDirectory, nodeFileOps } from '../core/storage/file-ops';
import { readTreeFile, walkProjectTree } from './project-tree';

/**
 * The folders the user has trusted, each with the hash of what it trusted (the project config
 * and `.tole/`): `trusted-folders.json` beside the user's config. A folder where either has
 * changed since is untrusted again, so an edit (by a pull, or by a command the model ran) asks again.
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

/**
 * What trust is keyed by: the folder's real path and the sha256 of what tole reads there to act
 * (the project config's bytes and everything under `.tole/`).
 */
export interface FolderFingerprint {
  readonly folder: string;
  readonly sha256: string;
  /** Why this folder cannot be trusted as it is (its `.tole` is too large to hash), when it cannot. */
  readonly refused?: string;
}

/**
 * The SHA-256 of no bytes: what a folder without a project config is keyed by. Every start in
 * such a folder asks for it, and hashing would load the crypto module (~5 ms) before the first frame.
 */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * The folder's fingerprint. Without a `.tole` it is the hash of the config's bytes alone (as
 * trust has always been recorded); with one, of the config and of every entry of the walk in
 * order: each as a JSON header line (kind, path, size or link target) then, for a file, its bytes.
 * `skip`: real paths under `.tole` that are tole's own state, not the project's.
 */
export function fingerprint(folder: string, configBytes: Buffer, skip: readonly string[] = []): FolderFingerprint {
  const real = realpathSync(folder);
  const tree = walkProjectTree(real, skip);
  if (tree.ok && tree.entries.length === 0) {
    const sha256 = configBytes.length === 0 ? EMPTY_SHA256 : createHash('sha256').update(configBytes).digest('hex');
    return { folder: real, sha256 };
  }
  const hash = createHash('sha256').update(`tole trust 2\nconfig ${configBytes.length}\n`).update(configBytes);
  if (!tree.ok) return { folder: real, sha256: hash.digest('hex'), refused: tree.reason };
  for (const entry of tree.entries) {
    hash.update(`${JSON.stringify(entry)}\n`);
    if (entry.kind !== 'file') continue;
    const bytes = readTreeFile(real, entry);
    if (bytes === null || bytes.length !== entry.bytes)
      return {
        folder: real,
        sha256: hash.digest('hex'),
        refused: `${join(real, entry.path)} changed while tole read it`,
      };
    hash.update(bytes);
  }
  return { folder: real, sha256: hash.digest('hex') };
}

export class TrustStore {
  private constructor(readonly path: string) {}

  static at(path: string): TrustStore {
    return new TrustStore(path);
  }

  isTrusted(print: FolderFingerprint): boolean {
    return print.refused === undefined && this.read().folders[print.folder]?.sha256 === print.sha256;
  }

  /** Records the trust whole and durably (temp file, fsync, rename, fsync of the directory). */
  trust(print: FolderFingerprint, nowIso: string): void {
    // node:assert is kept off the start path (it is loaded before the first frame otherwise).
    if (print.refused !== undefined) throw new Error('assert: a refused fingerprint is never trusted');
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
