/**
 * tole's build is split into chunks that are loaded on first use (dist/chunks/). When one cannot
 * be found (an install or a build cut short, a file removed under a running tole), Node's error
 * names a file and no remedy; this says what happened and what to do. A part of another build
 * than the running one (code TOLE_UPDATED: tole updated under a running session) is told the same
 * way, in its own words: restart tole.
 */

/** The user-facing words for a module that could not be found, or null when `error` is something else. */
export function missingModuleMessage(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'TOLE_UPDATED') return ((error as Error).message ?? '').split('\n')[0] ?? null;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return null;
  const what = ((error as Error).message ?? '').split('\n')[0];
  return `this install of tole is incomplete: ${what} (rebuild it with npm run build, or reinstall tole)`;
}
