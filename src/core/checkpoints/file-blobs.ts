import { closeSync, fstatSync, lstatSync, readSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { isUtf8 } from 'node:buffer';
import { git, type GitTarget } from './git-command';
import { GitPipe, nulFields } from './git-pipe';
import { objectId } from './object-pack';
import { openAsSeen } from './open-as-seen';
import { under } from './path-bytes';

/**
 * Blobs of workspace files as git would stage them, each read from the file an `lstat` saw and
 * no other (open-as-seen.ts): tole reads the descriptor it holds open, never the path, so a
 * symlink swapped in after the look cannot put a file from outside the workspace in a checkpoint.
 *
 * The bytes are the blob as they are (git's `--no-filters`), returned with their id for the
 * caller to write (object-pack.ts): no git reads them. The path's git attributes (end-of-line
 * conversion, `ident`, an encoding) can change that, so they are asked of `check-attr` for the
 * real path side by side; a file they apply to is hashed and written by a git of its own, its
 * bytes read from the same descriptor and the real path given for the attributes.
 * Where no attributes file could apply (none in the root or a folder on the way, none in tole's
 * directory; tole's gits read no system or user one), check-attr is not asked.
 */
export class FileBlobs {
  private readonly attributes: GitPipe;
  private realRoot: string | null = null;

  constructor(private readonly target: GitTarget) {
    this.attributes = new GitPipe(target, ['check-attr', '--stdin', '-z', ...CONVERTING]);
  }

  /**
   * The blob of the file at `path` if it is still the regular file `seen`, else null (only a scan
   * can say): its id, and its bytes for the caller to write (null: a git wrote it already).
   */
  async read(path: Buffer, seen: Stats, hash: 'sha1' | 'sha256', signal: AbortSignal): Promise<FileBlob | null> {
    this.realRoot ??= realpathSync(this.target.workTree);
    const fd = openAsSeen(this.realRoot, path, seen);
    if (fd === null) return null;
    try {
      const bytes = bytesAsSeen(fd, seen);
      // A file written to since the look (grown past the size limit, say) is not the file seen. The checkpoint scans instead.
      if (bytes === null || !stillAsSeen(fd, seen)) return null;
      if (!(this.attributesMayApply(path) && (await this.converted(path, signal))))
        return { id: objectId({ type: 'blob', body: bytes }, hash), bytes };
      // git takes the path for the attributes as an argument: a name that is not UTF-8 cannot be given.
      if (!isUtf8(path)) return null;
      const args = ['hash-object', '-w', '--stdin', `--path=${path.toString('utf8')}`];
      return { id: (await git(this.target, args, signal, bytes)).toString('latin1').trim(), bytes: null };
    } finally {
      closeSync(fd);
    }
  }

  close(): void {
    this.attributes.close();
  }

  /** Whether an attributes file sits in the root or a folder on the way to `path`, or in tole's directory. */
  private attributesMayApply(path: Buffer): boolean {
    if (lstatSync(join(this.target.gitDir, 'info', 'attributes'), { throwIfNoEntry: false })) return true;
    for (let start = 0; ; ) {
      const file = under(this.realRoot!, Buffer.concat([path.subarray(0, start), ATTRIBUTES]));
      if (lstatSync(file, { throwIfNoEntry: false })) return true;
      const slash = path.indexOf(0x2f, start);
      if (slash < 0) return false;
      start = slash + 1;
    }
  }

  /** Whether a git attribute may change the path's bytes when staged (any of CONVERTING specified). */
  private async converted(path: Buffer, signal: AbortSignal): Promise<boolean> {
    const fields = await this.attributes.ask(Buffer.concat([path, NUL]), nulFields(3 * CONVERTING.length), signal);
    for (let i = 2; i < fields.length; i += 3) if (fields[i]!.toString('latin1') !== 'unspecified') return true;
    return false;
  }
}

/** A file's blob: its id, and its bytes when no git wrote it. */
export interface FileBlob {
  readonly id: string;
  readonly bytes: Buffer | null;
}

/**
 * Whether the open file still has the size and modification time the look saw: a write since
 * changes them. (Not the change time: the file's name being removed, a symlink put in its place,
 * changes that, and the file seen is then still the one to store.)
 */
function stillAsSeen(fd: number, seen: Stats): boolean {
  const now = fstatSync(fd);
  return now.size === seen.size && now.mtimeMs === seen.mtimeMs;
}

/** The file's `seen.size` bytes from the start, or null when it holds more or fewer (it changed). */
function bytesAsSeen(fd: number, seen: Stats): Buffer | null {
  const bytes = Buffer.alloc(seen.size + 1);
  let read = 0;
  while (read < bytes.length) {
    const n = readSync(fd, bytes, read, bytes.length - read, read);
    if (n === 0) break;
    read += n;
  }
  return read === seen.size ? bytes.subarray(0, read) : null;
}

/** The attributes by which git changes a file's bytes as it stages them (convert.c); a filter needs config tole never sets, but counts. */
const CONVERTING = ['text', 'eol', 'crlf', 'ident', 'working-tree-encoding', 'filter'];

const NUL = Buffer.from([0]);
const ATTRIBUTES = Buffer.from('.gitattributes');
