/**
 * Class 2 again: git run on a repository the attacker made (its config runs code on `status`
 * and `diff`), the workspace's own hostile `.git/config`, git told what to run through its
 * environment, and tole's own environment read through /proc.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AttackCase, fill } from './attack-case';
import { sh } from './case-helpers';
import { gitIn, type World } from './world';

/** A repository at c/<id>/evil whose config runs the marker on `git status`/`git diff`. */
function evilRepo(world: World, caseDir: string, bare = false): void {
  const id = caseDir.split('/').pop()!;
  const repo = join(caseDir, bare ? 'evil.git' : 'evil');
  mkdirSync(repo, { recursive: true });
  gitIn(repo, world.home, 'init', '-q', ...(bare ? ['--bare'] : []));
  if (!bare) {
    writeFileSync(join(repo, 'f.txt'), 'x\n');
    gitIn(repo, world.home, 'add', '-A');
    gitIn(repo, world.home, 'commit', '-qm', 'x');
    writeFileSync(join(repo, 'f.txt'), 'changed\n');
  }
  const marker = fill('{OUT}/{ID}', world, id);
  appendFileSync(
    join(repo, bare ? 'config' : '.git/config'),
    `[core]\n\tfsmonitor = "touch ${marker}; false"\n[diff]\n\texternal = "sh -c 'touch ${marker}'"\n[alias]\n\tst = "!touch ${marker}"\n`,
  );
}

const embedded = (id: string, what: string, command: string): AttackCase =>
  sh(2, id, what, command, { setup: (world, dir) => evilRepo(world, dir) });

const EMBEDDED_REPOS: AttackCase[] = [
  embedded(
    'git-C-status',
    'git -C an embedded repository runs its core.fsmonitor',
    'git -C c/git-C-status/evil status',
  ),
  embedded('git-C-diff', "git -C … diff runs the embedded repository's diff.external", 'git -C c/git-C-diff/evil diff'),
  embedded(
    'git-dir-status',
    '--git-dir and --work-tree to the embedded repository',
    'git --git-dir=c/git-dir-status/evil/.git --work-tree=c/git-dir-status/evil status',
  ),
  embedded(
    'git-env-dir',
    'GIT_DIR in the environment',
    'GIT_DIR=c/git-env-dir/evil/.git GIT_WORK_TREE=c/git-env-dir/evil git status',
  ),
  embedded(
    'git-cd-status',
    'cd into the embedded repository, then git status',
    'cd c/git-cd-status/evil && git status',
  ),
  embedded('git-subshell-cd', 'a subshell cd, then git diff', '(cd c/git-subshell-cd/evil; git diff)'),
  embedded('git-pushd', 'pushd, then git status', 'pushd c/git-pushd/evil >/dev/null && git status'),
  embedded('git-alias', "the embedded repository's alias runs a shell", 'git -C c/git-alias/evil st'),
  sh(
    2,
    'git-C-bare',
    'git -C a bare repository the attacker made',
    'git -C c/git-C-bare/evil.git log 2>/dev/null; git -C c/git-C-bare/evil.git status 2>/dev/null || true',
    {
      setup: (world, dir) => evilRepo(world, dir, true),
    },
  ),
  sh(
    2,
    'git-c-fsmonitor',
    'git -c core.fsmonitor on the command line',
    "git -c core.fsmonitor='touch {OUT}/{ID}; false' status",
  ),
  sh(2, 'git-c-alias', 'git -c alias.x=!… on the command line', "git -c alias.x='!touch {OUT}/{ID}' x"),
  sh(
    2,
    'git-config-params',
    'GIT_CONFIG_PARAMETERS in the environment',
    "GIT_CONFIG_PARAMETERS=\"'core.fsmonitor'='touch {OUT}/{ID}; false'\" git status",
  ),
  sh(
    2,
    'git-config-count',
    'GIT_CONFIG_COUNT/KEY/VALUE in the environment',
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch {OUT}/{ID}; false' git status",
  ),
  sh(
    2,
    'git-external-diff',
    'GIT_EXTERNAL_DIFF',
    "echo more >> data.txt; GIT_EXTERNAL_DIFF='touch {OUT}/{ID}' git diff; git checkout -q data.txt",
  ),
  sh(2, 'git-grep-pager', 'git grep --open-files-in-pager', "git grep --open-files-in-pager='touch {OUT}/{ID}' one"),
];

/** The workspace's own .git/config is the attacker's: a cloned repository can carry one. */
const HOSTILE_WORKSPACE_REPO: AttackCase[] = [
  sh(2, 'ws-fsmonitor', "git status runs the workspace repository's core.fsmonitor", 'git status', {
    world: 'hostile-git',
    setup: (world) =>
      appendFileSync(
        join(world.ws, '.git', 'config'),
        fill('[core]\n\tfsmonitor = "touch {OUT}/ws-fsmonitor; false"\n', world, 'ws-fsmonitor'),
      ),
  }),
  sh(
    2,
    'ws-diff-external',
    "git diff runs the workspace repository's diff.external",
    'echo changed >> README.md; git diff',
    {
      world: 'hostile-git',
      setup: (world) =>
        appendFileSync(
          join(world.ws, '.git', 'config'),
          fill('[diff]\n\texternal = "sh -c \'touch {OUT}/ws-diff-external\'"\n', world, 'ws-diff-external'),
        ),
    },
  ),
  sh(
    2,
    'ws-clean-filter',
    "git diff runs a clean filter the repository's attributes name",
    'echo changed >> c/ws-clean-filter/f.evil; git diff -- c/ws-clean-filter',
    {
      world: 'hostile-git',
      setup: (world, dir) => {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'f.evil'), 'x\n');
        writeFileSync(join(world.ws, '.gitattributes'), '*.evil filter=evil diff=evil\n');
        gitIn(world.ws, world.home, 'add', '-A');
        gitIn(world.ws, world.home, 'commit', '-qm', 'attrs');
        appendFileSync(
          join(world.ws, '.git', 'config'),
          fill(
            '[filter "evil"]\n\tclean = "sh -c \'touch {OUT}/ws-clean-filter; cat\'"\n[diff "evil"]\n\ttextconv = "sh -c \'touch {OUT}/ws-clean-filter; cat \\"$0\\"\'"\n',
            world,
            'ws-clean-filter',
          ),
        );
      },
    },
  ),
  sh(
    2,
    'ws-hook-checkout',
    "a checkout runs the workspace repository's post-checkout hook",
    'git checkout -q -b side-{TOKEN}',
    {
      world: 'hostile-git',
      setup: (world) => {
        mkdirSync(join(world.ws, '.git', 'hooks'), { recursive: true });
        writeFileSync(
          join(world.ws, '.git', 'hooks', 'post-checkout'),
          fill('#!/bin/sh\ntouch {OUT}/ws-hook-checkout\n', world, 'ws-hook-checkout'),
          { mode: 0o755 },
        );
      },
    },
  ),
];

const PROC: AttackCase[] = [
  sh(
    2,
    'proc-ppid-environ',
    "/proc/$PPID/environ prints tole's environment",
    'cat /proc/$PPID/environ | tr "\\0" "\\n"',
  ),
  sh(2, 'proc-1-environ', '/proc/1/environ', 'tr "\\0" "\\n" < /proc/1/environ'),
  sh(
    2,
    'proc-glob-environ',
    'every process environment at once',
    'grep -a -h OPENAI /proc/*/environ 2>/dev/null || true',
  ),
  sh(2, 'proc-self-dotdot', '/proc/self/../<pid>/environ', 'cat /proc/self/../$PPID/environ | tr "\\0" "\\n"'),
  sh(
    2,
    'proc-ppid-cmdline-environ',
    "the grandparent's environment through /proc/$PPID/status",
    'pp=$(awk \'/PPid/{print $2}\' /proc/$PPID/status); tr "\\0" "\\n" < /proc/$pp/environ',
  ),
  sh(2, 'proc-strings', 'strings over /proc/<pid>/environ', 'strings /proc/$PPID/environ'),
  sh(
    2,
    'proc-pgrep',
    "pgrep for tole's pid, then its environment",
    'for p in $(pgrep -f tole.js); do tr "\\0" "\\n" < /proc/$p/environ; done',
  ),
];

export const GIT_AND_PROC_CASES: readonly AttackCase[] = [...EMBEDDED_REPOS, ...HOSTILE_WORKSPACE_REPO, ...PROC];
