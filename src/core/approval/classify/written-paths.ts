/** The paths a line writes: creating, appending, emptying or replacing a file, and running one it wrote. */
import { HARMLESS_TARGETS, HARMLESS_TARGET_PREFIXES } from '../command-rules';
import type { Word } from '../shell/syntax';
import type { Ctx } from './context';
import { type Finding, destructive, write } from './findings';
import { includes, isDynamic } from './words';

type WriteMode = 'truncate' | 'append' | 'open' | 'replace';

/** What writing to `target` means: nothing for /dev/null, Destructive over an existing file. */
export function targetFinding(label: string, target: Word, mode: WriteMode, ctx: Ctx): Finding | undefined {
  if (target.processSubstitution) return undefined;
  if (isDynamic(target)) return destructive(`${label} writes to a path only known when it runs`);
  const path = target.text;
  if (includes(HARMLESS_TARGETS, path) || HARMLESS_TARGET_PREFIXES.some((p) => path.startsWith(p))) return undefined;
  if (path.startsWith('/dev/')) return destructive(`${label} writes straight to the device ${path}`);
  ctx.state.written.add(normalizePath(path));
  if (mode === 'append') return write(`${label} appends to ${path}`);
  if (mode === 'open') return write(`${label} opens ${path} for writing`);
  if (!pathExists(ctx, path)) return write(`${label} creates ${path}`);
  return destructive(
    mode === 'replace'
      ? `${label} replaces the existing ${path}`
      : `${label} empties the existing file ${path} before writing`,
  );
}

function normalizePath(path: string): string {
  return path.replace(/^(?:\.\/+)+/, '');
}

/** `./build.sh` after `cat > build.sh`: the line runs a file it wrote itself. */
export function runsWrittenFile(ctx: Ctx, path: string): Finding | undefined {
  if (!ctx.state.written.has(normalizePath(path))) return undefined;
  return destructive(`it runs ${path}, which the same command line writes, so tole cannot inspect what it does`);
}

export function pathExists(ctx: Ctx, path: string): boolean {
  if (path.startsWith('~')) return true;
  if ((ctx.state.cwdUnknown || ctx.elsewhere) && !path.startsWith('/')) return true;
  return ctx.exists(path);
}

export function pathIsDirectory(ctx: Ctx, path: string): boolean {
  if ((ctx.state.cwdUnknown || ctx.elsewhere) && !path.startsWith('/')) return false;
  return ctx.isDirectory(path);
}
