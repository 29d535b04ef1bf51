import { isUtf8 } from 'node:buffer';
import { lstatSync, type Stats } from 'node:fs';

/**
 * File names as git and the filesystem hold them: bytes. A name need not be UTF-8 (`caf\xe9.txt`
 * from a Latin-1 system); decoding it would turn it into another name, one that does not exist,
 * and git would then leave the file out of a checkpoint without a word. So names stay Buffers
 * from git's `-z` output to the filesystem calls and back to git; only what is shown or written
 * into a checkpoint's message becomes text (`pathText`).
 */

/** NUL-separated output, each field its own Buffer (the last, empty field dropped). */
export function nulBuffers(out: Buffer): Buffer[] {
  const fields: Buffer[] = [];
  let start = 0;
  for (let end = out.indexOf(0); end >= 0; end = out.indexOf(0, start)) {
    fields.push(out.subarray(start, end));
    start = end + 1;
  }
  if (start < out.length) fields.push(out.subarray(start));
  return fields;
}

/** Paths as git's `-z` / `--pathspec-file-nul` input. */
export function nulJoined(paths: readonly Buffer[]): Buffer {
  return Buffer.concat(paths.flatMap((p) => [p, NUL]));
}

const NUL = Buffer.from([0]);

/** A name for people: itself when it is UTF-8, else with each byte outside ASCII as `\xHH` (and `\` as `\\`). */
export function pathText(path: Buffer): string {
  if (isUtf8(path)) return path.toString('utf8');
  let text = '';
  for (const byte of path) {
    if (byte === 0x5c) text += '\\\\';
    else if (byte < 0x80) text += String.fromCharCode(byte);
    else text += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return text;
}

/** One string per distinct byte sequence (for sets and maps): each byte one char. */
export function pathKey(path: Buffer): string {
  return path.toString('latin1');
}

/** `root/path` as bytes. */
export function under(root: string, path: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${root}/`), path]);
}

/** The directory part of a byte path (`a/b/c` → `a/b`), or null at the top. */
export function parentOf(path: Buffer): Buffer | null {
  const slash = path.lastIndexOf(0x2f);
  return slash <= 0 ? null : path.subarray(0, slash);
}

/** What `lstat` says of `path`, or null when there is nothing there (or it cannot be looked at). */
export function lstatOrNull(path: string | Buffer): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
