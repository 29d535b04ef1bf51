/**
 * Git settings every command the model runs (its bash calls, hooks, prompt commands) gets
 * through the environment, inside the sandbox and out: a repository's own config, or a bare
 * repository lying in the workspace, must not make a harmless-looking `git status` run its code.
 * Git reads `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n` as command-line
 * config, which outranks every config file; the user's own pairs are kept, ours follow them.
 *
 * Closed: `core.fsmonitor` (run by status, diff, add…), hooks (`core.hooksPath`), bare
 * repositories found by discovery (`git -C some.git …`), the `ext::` transport (runs any
 * command), `core.sshCommand` (a command per fetch over ssh), `core.askPass`.
 * Named drivers a repository's config defines (`filter.<name>.*`, `diff.<name>.command` and
 * `textconv`, `merge.<name>.driver`, `diff.external`, signing programs…) have no setting that
 * switches them off: git-repo-drivers.ts reads them from the repository and passes each an inert
 * value here (`more`). The sandbox keeps `.git/config` read-only, so a confined command cannot
 * add them.
 */

/** The settings, in the order they are given. */
export const GIT_GUARD_CONFIG: readonly (readonly [key: string, value: string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['safe.bareRepository', 'explicit'],
  ['protocol.ext.allow', 'never'],
  ['core.askPass', ''],
];

/** Set by `git -c` in a parent git process; read after GIT_CONFIG_COUNT, so it could undo ours. */
const GIT_CONFIG_PARAMETERS = 'GIT_CONFIG_PARAMETERS';

/** The user's own count, when it is one git accepts. */
function userCount(value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value)) return 0;
  return Number(value);
}

/** `env` with tole's git settings added after any the user set (`GIT_CONFIG_COUNT` merged, not replaced). */
export function withGitGuard(
  env: Readonly<Record<string, string>>,
  /** More settings after tole's own: the repository's named programs made inert (git-repo-drivers.ts). */
  more: readonly (readonly [string, string])[] = [],
): Record<string, string> {
  const out: Record<string, string> = { ...env };
  delete out[GIT_CONFIG_PARAMETERS];
  const first = userCount(env['GIT_CONFIG_COUNT']);
  const settings: (readonly [string, string])[] = [...GIT_GUARD_CONFIG];
  // core.sshCommand only when no variable names the ssh program already (those outrank it).
  if (env['GIT_SSH_COMMAND'] === undefined && env['GIT_SSH'] === undefined) settings.push(['core.sshCommand', 'ssh']);
  settings.push(...more);
  settings.forEach(([key, value], index) => {
    out[`GIT_CONFIG_KEY_${first + index}`] = key;
    out[`GIT_CONFIG_VALUE_${first + index}`] = value;
  });
  out['GIT_CONFIG_COUNT'] = String(first + settings.length);
  return out;
}
