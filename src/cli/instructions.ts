import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readRegularFile } from '../core/regular-file';

/** Project instructions: the cross-agent `AGENTS.md` convention. */
const INSTRUCTIONS_FILE = 'AGENTS.md';
/** What one file may add to the system prompt; the rest is left out, with a notice. */
export const INSTRUCTIONS_FILE_MAX_BYTES = 32 * 1024;
/** What all of them together may add. */
const INSTRUCTIONS_TOTAL_MAX_BYTES = 64 * 1024;

interface InstructionFile {
  readonly path: string;
  /** Bytes of the file taken into the prompt. */
  readonly bytes: number;
  /** Bytes left out by the caps. */
  readonly cutBytes: number;
}

export interface Instructions {
  readonly files: readonly InstructionFile[];
  /** The block for the system prompt ('' when there is none). */
  readonly text: string;
  readonly notices: readonly string[];
}

/**
 * `AGENTS.md` files, most general first: the global one in tole's config dir, then the
 * repository root's and each directory down to the workspace root (the nearest one last, so it
 * reads as the most specific). Without a repository (no `.git` above), only the workspace root's.
 */
function instructionPaths(workspaceRoot: string, configDir: string): string[] {
  const dirs: string[] = [];
  let repoRoot: string | null = null;
  for (let dir = workspaceRoot; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (existsSync(join(dir, '.git'))) {
      repoRoot = dir;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  const project = repoRoot === null ? [workspaceRoot] : dirs.reverse();
  return [join(configDir, INSTRUCTIONS_FILE), ...project.map((dir) => join(dir, INSTRUCTIONS_FILE))];
}

/** Reads the instruction files that exist, capped, each under a header naming its path. */
export function loadInstructions(workspaceRoot: string, configDir: string): Instructions {
  const files: InstructionFile[] = [];
  const sections: string[] = [];
  const notices: string[] = [];
  let room = INSTRUCTIONS_TOTAL_MAX_BYTES;
  for (const path of instructionPaths(workspaceRoot, configDir)) {
    const text = readIfFile(path, notices);
    if (text === null || text.trim() === '') continue;
    const whole = Buffer.from(text, 'utf8');
    const take = Math.min(whole.length, INSTRUCTIONS_FILE_MAX_BYTES, room);
    const kept = whole
      .subarray(0, take)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    const cutBytes = whole.length - take;
    room -= take;
    files.push({ path, bytes: take, cutBytes });
    if (cutBytes > 0)
      notices.push(
        `${path}: only the first ${take} of ${whole.length} bytes are in the prompt (instructions are capped at ${INSTRUCTIONS_FILE_MAX_BYTES} bytes a file, ${INSTRUCTIONS_TOTAL_MAX_BYTES} in all)`,
      );
    if (take > 0)
      sections.push(
        `## ${path}\n\n${kept.trimEnd()}${cutBytes > 0 ? `\n\n[... ${cutBytes} more bytes of this file left out ...]` : ''}`,
      );
  }
  const text =
    sections.length === 0
      ? ''
      : [
          '# Project instructions',
          'The user and the project give these instructions (AGENTS.md files, most general first; a nearer file goes over a farther one).',
          ...sections,
        ].join('\n\n');
  return { files, text, notices };
}

function readIfFile(path: string, notices: string[]): string | null {
  try {
    if (!statSync(path).isFile()) return null;
    return readRegularFile(path).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') notices.push(`${path}: not read (${(error as Error).message})`);
    return null;
  }
}
