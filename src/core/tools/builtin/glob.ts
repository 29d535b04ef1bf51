import path from 'node:path';
import picomatch from 'picomatch';
import type { z } from 'zod';
import { lazySchema } from '../../lazy';
import { formatCount } from '../cap-output';
import type { Tool, ToolContext, ToolOutput } from '../tool';
import { isWithin } from '../path-outside-workspace';
import { failure, fsFailure, workspacePathOrFailure } from './file-io';
import { walkWorkspace } from './walk-workspace';

export const GLOB_MAX_RESULTS = 1000;

const inputSchema = lazySchema((z) =>
  z.strictObject({
    pattern: z
      .string()
      .min(1)
      .describe('Glob relative to the workspace root, e.g. "src/**/*.ts", "*.{json,md}", "test/?/*.ts".'),
  }),
);

type GlobInput = z.infer<ReturnType<typeof inputSchema>>;

export const globTool: Tool<GlobInput> = {
  name: 'glob',
  description:
    'Find files in the workspace by glob pattern, relative to the workspace root. "**" matches any number ' +
    'of directories, "*" and "?" match within one path segment, "{a,b}" matches either, "[abc]" one character. ' +
    `Skips .git and node_modules. Returns sorted paths, at most ${GLOB_MAX_RESULTS}.`,
  get inputSchema() {
    return inputSchema();
  },
  replay: 'idempotent',
  tier: 'cold',
  declaredRisk: 'ReadOnly',
  assess: () => ({ risk: 'ReadOnly', reason: 'lists matching file names' }),
  workspaceEffect: { kind: 'none' },
  subject: (input) => input.pattern,
  execute: glob,
};

async function glob(input: GlobInput, ctx: ToolContext): Promise<ToolOutput> {
  const pattern = relativePattern(input.pattern, ctx.workspaceRoot);
  if (pattern === null) {
    return failure(
      `Pattern "${input.pattern}" is absolute and outside the workspace; use a pattern relative to the workspace root.`,
    );
  }
  const compiled = globToRegExp(pattern);
  if (!compiled.ok) return failure(`Invalid glob "${input.pattern}": ${compiled.message}.`);
  const prefix = staticPrefix(pattern);
  const resolved = await workspacePathOrFailure(ctx.workspaceRoot, prefix || '.');
  if (!resolved.ok) return resolved.output;
  const { found, absolutePath } = resolved.path;
  if (found.kind !== 'directory') return { ok: true, content: `No files match ${input.pattern}.` };
  try {
    const matches: string[] = [];
    const start = { absolutePath, dev: found.dev, ino: found.ino };
    const walk = await walkWorkspace(absolutePath, start, ctx.signal, (entry) => {
      if (entry.kind === 'special') return 'continue';
      const shown = prefix ? `${prefix}/${entry.relativePath}` : entry.relativePath;
      if (compiled.regExp.test(shown)) matches.push(shown);
      return matches.length >= GLOB_MAX_RESULTS ? 'stop' : 'continue';
    });
    return present(input.pattern, matches.sort(), walk.complete, walk.hitEntryLimit);
  } catch (error) {
    return fsFailure(error, prefix || '.');
  }
}

function present(pattern: string, matches: string[], complete: boolean, hitEntryLimit: boolean): ToolOutput {
  if (matches.length === 0 && complete) return { ok: true, content: `No files match ${pattern}.` };
  const notes: string[] = [];
  if (matches.length >= GLOB_MAX_RESULTS)
    notes.push(`[stopped at ${formatCount(GLOB_MAX_RESULTS)} matches; narrow the pattern to see the rest]`);
  else if (hitEntryLimit)
    notes.push('[the workspace is too large to search whole; results are partial, narrow the pattern]');
  else if (!complete) notes.push('[search interrupted; results are partial]');
  return { ok: true, content: [...matches, ...notes].join('\n') };
}

/** The pattern relative to the root (`./` dropped, an absolute one inside the root made relative), or null. */
function relativePattern(pattern: string, workspaceRoot: string): string | null {
  if (!path.isAbsolute(pattern)) return pattern.replace(/^(\.\/)+/, '');
  const root = path.resolve(workspaceRoot);
  const absolute = path.resolve(pattern);
  if (absolute === root || !isWithin(absolute, root)) return null;
  return path.relative(root, absolute).split(path.sep).join('/');
}

/** The leading directories that contain no glob syntax: where the walk starts. */
export function staticPrefix(pattern: string): string {
  const parts = pattern.split('/');
  const fixed: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (/[*?[\]{}\\]/.test(part)) break;
    fixed.push(part);
  }
  return fixed.filter((part) => part !== '' && part !== '.').join('/');
}

type CompiledGlob = { readonly ok: true; readonly regExp: RegExp } | { readonly ok: false; readonly message: string };

/**
 * A glob as an anchored regular expression over `/`-separated relative paths, by picomatch
 * (dot files included, as a walk of the workspace lists them; `[!a]` negates as in a shell). picomatch reads an unclosed `{` or
 * `[` as a literal character; a model that typed one meant syntax, so it is told instead.
 */
export function globToRegExp(pattern: string): CompiledGlob {
  const unclosed = unclosedBracket(pattern);
  if (unclosed !== null) return { ok: false, message: unclosed };
  return { ok: true, regExp: picomatch.makeRe(pattern, { dot: true, posix: true }) };
}

function unclosedBracket(pattern: string): string | null {
  let braces = 0;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === '\\') index += 1;
    else if (char === '{') braces += 1;
    else if (char === '}' && braces > 0) braces -= 1;
    else if (char === '[' && pattern.indexOf(']', index + 2) === -1)
      return `"[" at position ${index + 1} has no closing "]"`;
  }
  return braces > 0 ? '"{" has no closing "}"' : null;
}
