import { constants } from 'node:fs';
import type { RE2JS } from 're2js';
import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import { capOutput, formatCount } from '../cap-output';
import type { Tool, ToolContext, ToolOutput } from '../tool';
import { openChecked } from './checked-open';
import {
  failure,
  pathSubject,
  fsFailure,
  isFsError,
  looksBinary,
  specialMessage,
  workspacePathOrFailure,
} from './file-io';
import { walkWorkspace, type WalkEntry } from './walk-workspace';

export const GREP_MAX_MATCHES = 500;
/** Files larger than this are skipped (and counted): they are logs or data, not source. */
export const GREP_MAX_FILE_BYTES = 1024 * 1024;
/** A matching line is shown up to this many characters. */
const GREP_MAX_LINE_CHARS = 300;

const inputSchema = lazySchema((z) =>
  z.strictObject({
    pattern: z
      .string()
      .min(1)
      .describe(
        'Regular expression (RE2 syntax: like JavaScript, without lookaround or backreferences), e.g. "function\\\\s+\\\\w+" or "TODO|FIXME".',
      ),
    path: z
      .string()
      .optional()
      .describe('File or directory to search, relative to the workspace root (default: the whole workspace).'),
  }),
);

type GrepInput = z.infer<ReturnType<typeof inputSchema>>;

interface GrepState {
  readonly regExp: RE2JS;
  readonly matches: string[];
  skippedLarge: number;
  skippedBinary: number;
  skippedSpecial: number;
}

export const grepTool: Tool<GrepInput> = {
  name: 'grep',
  description:
    'Search file contents with a regular expression (RE2 syntax: JavaScript-like, no lookaround or backreferences). ' +
    'Prints "file:line: text" for each matching ' +
    `line, files sorted by path. Skips binary files, files over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MiB, .git ` +
    `and node_modules. At most ${GREP_MAX_MATCHES} matches.`,
  get inputSchema() {
    return inputSchema();
  },
  replay: 'idempotent',
  tier: 'cold',
  declaredRisk: 'ReadOnly',
  assess: () => ({ risk: 'ReadOnly', reason: 'searches file contents' }),
  workspaceEffect: { kind: 'none' },
  subject: (input) => (input.path === undefined ? input.pattern : `${input.pattern} in ${input.path}`),
  resolvedSubject: async (input, workspaceRoot) =>
    input.path === undefined ? input.pattern : `${input.pattern} in ${await pathSubject(workspaceRoot, input.path)}`,
  execute: grep,
};

async function grep(input: GrepInput, ctx: ToolContext): Promise<ToolOutput> {
  const regExp = await compile(input.pattern);
  if (typeof regExp === 'string') return failure(regExp);
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, input.path ?? '.');
  if (!resolved.ok) return resolved.output;
  const { absolutePath, relativePath, root, found } = resolved.path;
  const state: GrepState = { regExp, matches: [], skippedLarge: 0, skippedBinary: 0, skippedSpecial: 0 };
  if (found.kind === 'missing') return failure(`${relativePath} does not exist. Use list_dir or glob to find it.`);
  if (found.kind !== 'file' && found.kind !== 'directory') return failure(specialMessage(relativePath));
  try {
    if (found.kind === 'directory') {
      const start = { absolutePath, dev: found.dev, ino: found.ino };
      const walk = await walkWorkspace(root, start, ctx.signal, (entry) => searchFile(entry, state));
      return present(input, state, walk.complete || state.matches.length >= GREP_MAX_MATCHES);
    }
    await searchFile({ absolutePath, relativePath, kind: 'file', openPath: absolutePath }, state);
    return present(input, state, true);
  } catch (error) {
    return fsFailure(error, relativePath);
  }
}

/**
 * The model's pattern, compiled for RE2JS: a linear-time engine, so no pattern (`(a+)+$` on a
 * long line of `a`) can hold the event loop, and no deadline or cut-off is needed. Lookaround and
 * backreferences, which need backtracking, are refused with a word on what to use instead.
 * RE2JS is loaded on the first search, not at start (it is a large module).
 */
async function compile(pattern: string): Promise<RE2JS | string> {
  const { RE2JS } = await import('re2js');
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    const why = (error as Error).message.replace(/^error parsing regexp: /, '');
    return (
      `Invalid regular expression ${JSON.stringify(pattern)}: ${why}. grep uses RE2 syntax (linear time): no lookaround ` +
      '((?=, (?!, (?<=) or backreferences (\\1); escape special characters like ( [ { . * + ? with a backslash.'
    );
  }
}

async function searchFile(entry: WalkEntry, state: GrepState): Promise<'continue' | 'stop'> {
  if (entry.kind === 'special') state.skippedSpecial += 1;
  if (entry.kind !== 'file') return 'continue';
  const bytes = await readSmallFile(entry, state);
  if (bytes === null) return 'continue';
  const lines = bytes.toString('utf8').split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index].endsWith('\r') ? lines[index].slice(0, -1) : lines[index];
    if (!state.regExp.matcher(line).find()) continue;
    state.matches.push(`${entry.relativePath}:${index + 1}: ${clip(line)}`);
    if (state.matches.length >= GREP_MAX_MATCHES) return 'stop';
  }
  return 'continue';
}

/** The file's bytes, or null when it is too large, binary, not a regular file or unreadable (counted in `state`). */
async function readSmallFile(entry: WalkEntry, state: GrepState): Promise<Buffer | null> {
  try {
    const handle = await openChecked(entry.openPath, entry.absolutePath, null, constants.O_RDONLY);
    try {
      if ((await handle.stat()).size > GREP_MAX_FILE_BYTES) {
        state.skippedLarge += 1;
        return null;
      }
      const bytes = await handle.readFile();
      if (!looksBinary(bytes)) return bytes;
      state.skippedBinary += 1;
      return null;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (!isFsError(error)) throw error;
    if (error.code === 'ESPECIAL') state.skippedSpecial += 1;
    return null;
  }
}

function clip(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > GREP_MAX_LINE_CHARS ? `${trimmed.slice(0, GREP_MAX_LINE_CHARS)} [...]` : trimmed;
}

function present(input: GrepInput, state: GrepState, complete: boolean): ToolOutput {
  const notes: string[] = [];
  if (state.matches.length >= GREP_MAX_MATCHES) {
    notes.push(`[stopped at ${GREP_MAX_MATCHES} matches; narrow the pattern or the path to see the rest]`);
  } else if (!complete) notes.push('[search stopped early (workspace too large or interrupted); results are partial]');
  if (state.skippedLarge > 0)
    notes.push(`[skipped ${formatCount(state.skippedLarge)} files over ${GREP_MAX_FILE_BYTES} bytes]`);
  if (state.skippedBinary > 0) notes.push(`[skipped ${formatCount(state.skippedBinary)} binary files]`);
  if (state.skippedSpecial > 0)
    notes.push(`[skipped ${formatCount(state.skippedSpecial)} special files (FIFO, socket or device), never opened]`);
  const where = input.path === undefined ? 'the workspace' : input.path;
  const body =
    state.matches.length === 0 ? [`No matches for ${JSON.stringify(input.pattern)} in ${where}.`] : state.matches;
  return { ok: true, content: capOutput([...body, ...notes].join('\n')) };
}
