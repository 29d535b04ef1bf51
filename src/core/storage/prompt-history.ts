import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fsyncDirectory, nodeFileOps, type FileOps } from './file-ops';

/** Prompts kept per workspace: ↑ reaches this far back. */
export const MAX_HISTORY_PROMPTS = 1000;
/** A prompt longer than this is not kept (a pasted file is not worth recalling whole). */
export const MAX_HISTORY_PROMPT_CHARS = 20_000;

/**
 * The prompts sent in one workspace, across sessions and restarts: `history/<name of the
 * workspace's path>.jsonl` (historyFileName) under tole's home, one JSON string per line, oldest first. Not the
 * session: it is what ↑ and Ctrl-R bring back, and losing it loses no work. Each prompt is
 * appended and fdatasynced before `append` returns; a torn last line (a crash mid-append) is
 * skipped on reading and the next append starts on a line of its own. The file is rewritten to
 * its newest MAX_HISTORY_PROMPTS (under a temporary name, synced, renamed, directory synced)
 * when it has grown to twice that; a prompt another tole appends during that rewrite can be lost.
 */
export class PromptHistory {
  readonly #path: string;
  readonly #ops: FileOps;
  #prompts: string[];
  /** Whether the file ends with a newline (or is empty): a torn line does not. */
  #endsClean: boolean;

  private constructor(path: string, ops: FileOps, prompts: string[], endsClean: boolean) {
    this.#path = path;
    this.#ops = ops;
    this.#prompts = prompts;
    this.#endsClean = endsClean;
  }

  /** The history of `workspace` kept under `home` (the folder is made when missing). */
  static open(home: string, workspace: string, ops: FileOps = nodeFileOps): PromptHistory {
    const dir = join(home, 'history');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, historyFileName(workspace));
    // A FIFO (or a device) there is never read: the read would wait for a writer that never comes,
    // and the screen would hang before its first frame.
    const kind = ops.kindOf(path);
    if (kind !== null && kind !== 'file')
      throw new Error(`${path} is a ${kind}, not a file: the prompt history is neither read nor kept there`);
    const text = kind === 'file' ? ops.readFileSync(path).toString('utf8') : '';
    const lines = text.split('\n');
    const prompts: string[] = [];
    for (const line of lines) {
      const prompt = parsed(line);
      if (prompt !== null) prompts.push(prompt);
    }
    const history = new PromptHistory(
      path,
      ops,
      prompts.slice(-MAX_HISTORY_PROMPTS),
      text === '' || text.endsWith('\n'),
    );
    if (prompts.length >= 2 * MAX_HISTORY_PROMPTS) history.#rewrite();
    return history;
  }

  /** The prompts, oldest first. */
  get prompts(): readonly string[] {
    return this.#prompts;
  }

  get path(): string {
    return this.#path;
  }

  /** Keeps `prompt` (durably: synced before this returns). A prompt too long to keep, or empty, is not. */
  append(prompt: string): void {
    if (prompt.trim() === '' || prompt.length > MAX_HISTORY_PROMPT_CHARS) return;
    const line = `${this.#endsClean ? '' : '\n'}${JSON.stringify(prompt)}\n`;
    const fd = this.#ops.openSync(this.#path, 'a', 0o600);
    try {
      writeAll(this.#ops, fd, Buffer.from(line, 'utf8'), this.#ops.fstatSize(fd));
      this.#ops.fdatasyncSync(fd);
    } finally {
      this.#ops.closeSync(fd);
    }
    this.#endsClean = true;
    this.#prompts = [...this.#prompts, prompt].slice(-MAX_HISTORY_PROMPTS);
  }

  #rewrite(): void {
    const temp = `${this.#path}.${process.pid}.tmp`;
    const fd = this.#ops.openSync(temp, 'w', 0o600);
    try {
      writeAll(this.#ops, fd, Buffer.from(this.#prompts.map((p) => `${JSON.stringify(p)}\n`).join(''), 'utf8'), 0);
      this.#ops.fdatasyncSync(fd);
    } finally {
      this.#ops.closeSync(fd);
    }
    this.#ops.renameSync(temp, this.#path);
    fsyncDirectory(this.#ops, join(this.#path, '..'));
    this.#endsClean = true;
  }
}

/** A line's prompt, or null for a line that is not one (empty, torn, or not a JSON string). */
function parsed(line: string): string | null {
  if (line === '') return null;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'string' && value !== '' ? value : null;
  } catch {
    return null;
  }
}

/** `writeSync` until every byte is written: it can return short (a full disk). */
function writeAll(ops: FileOps, fd: number, buffer: Buffer, at: number): void {
  let done = 0;
  while (done < buffer.length) {
    const wrote = ops.writeSync(fd, buffer, done, buffer.length - done, at + done);
    if (wrote <= 0) throw new Error(`wrote nothing to the prompt history (${done} of ${buffer.length} bytes)`);
    done += wrote;
  }
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = (1n << 64n) - 1n;

/**
 * The history file's name for a workspace path: its last folder's name (readable in a listing,
 * cut to 40 characters, only letters, digits, `.`, `_` and `-` kept) and the 64-bit FNV-1a of the
 * whole path's UTF-8 bytes. Written here rather than with node:crypto, which the screen would load
 * before its first frame only for this: a file name needs no cryptographic strength, only paths
 * that differ getting names that differ, and two workspaces meeting on 64 bits and the same last
 * folder's name would only share what ↑ recalls.
 */
export function historyFileName(workspace: string): string {
  let hash = FNV_OFFSET;
  for (const byte of Buffer.from(workspace, 'utf8')) {
    hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  }
  const last =
    workspace
      .split('/')
      .filter((part) => part !== '')
      .pop() ?? 'root';
  const readable = last.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);
  return `${readable}-${hash.toString(16).padStart(16, '0')}.jsonl`;
}
