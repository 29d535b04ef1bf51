/**
 * tole's git: the script put first on the PATH of every command tole runs outside its sandbox, so
 * that each git the command starts (itself, or a script, make, xargs, a Python child, git's own
 * `submodule foreach` or `rebase --exec`) is vetted when it starts, against the repository it
 * finds then: one the command unpacked, cloned or wrote a moment before included. Before the run,
 * tole vets only what exists then (git-repo-drivers.ts).
 *
 * The script, each time:
 * 1. adds tole's guard (git-guard-env.ts) to its environment after whatever the command left there;
 * 2. lists the config the real git would read (`git config --list`, given the command's `-C`,
 *    `--git-dir`, `--work-tree`, `-c` and environment, so it finds the same repository and the
 *    same includes);
 * 3. refuses (exit 128, saying what it found and what to do) when the guard's settings are undone
 *    (`-c`, GIT_CONFIG_PARAMETERS), a config file is included from the command line or the
 *    environment, or a key of the repository's config (or of a user config other than the one
 *    tole started with: a HOME or GIT_CONFIG_GLOBAL the command moved) is one tole cannot vouch
 *    for; a key that names a program gets its inert value, as before the run;
 * 4. runs the real git (resolved once by tole), with git's own programs folder pointed at a copy
 *    whose `git` is this script, so the gits git itself starts pass here too.
 * The vouching is the same data as before the run, written into the script: git-inert-keys.ts,
 * git-program-keys.ts and the user's trustedGitKeys.
 *
 * The script is written in three parts: its data (git-shim-data.ts), steps 1 and 2
 * (git-shim-arguments.ts) and steps 3 and 4 (git-shim-listing.ts).
 *
 * Written for bash run with -p: no BASH_ENV, no functions or shell options from the environment.
 * Everything the script sets is named `__tole_*` and set before it is read.
 */
import { type GitShimFacts, shimData } from './git-shim-data';
import { SHIM_ARGUMENTS } from './git-shim-arguments';
import { SHIM_LISTING } from './git-shim-listing';

export type { GitShimFacts } from './git-shim-data';

/** The whole script. */
export function gitShimScript(facts: GitShimFacts): string {
  const data = shimData(facts);
  return `#!${facts.bash} -p
# tole's git: vets the config of the repository each git finds when it starts, then runs the real
# git. Written by tole (src/core/git-shim-script.ts) for the commands it runs outside its sandbox.
set +o posix
unset BASH_COMPAT
IFS=$' \\t\\n'
for __tole_v in "\${!__tole_@}"; do unset "$__tole_v"; done
__tole_lc_set=\${LC_ALL+x}
__tole_lc=\${LC_ALL-}
LC_ALL=C
${data.join('\n')}
${SHIM_ARGUMENTS}${SHIM_LISTING}`;
}
