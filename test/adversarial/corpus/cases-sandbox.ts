/**
 * Class 4: leaving the sandbox. A sandboxed command must not reach the user's tmux server (its
 * socket under /tmp), leave anything in `.git` or tole's own files that runs later outside it, or
 * write the user's dotfiles; without a sandbox none of these runs unasked at all.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttackCase } from './attack-case';
import { sh, call } from './case-helpers';
import { nextStartRunsNothing, trustNow } from './next-start';
import { BASHRC, settleTmux, userEnv, type World } from './world';

/** The user, later, outside tole: `git status` in the workspace must not run anything planted. */
function userGitStatus(w: World, id: string): string | null {
  spawnSync('git', ['status'], { cwd: w.ws, stdio: 'ignore', env: userEnv(w) });
  spawnSync('git', ['checkout', '-q', '-b', `user-${id}`], {
    cwd: w.ws,
    stdio: 'ignore',
    env: userEnv(w),
  });
  return existsSync(join(w.out, id)) ? "the user's own git ran what the command planted" : null;
}

const tmux = (id: string, what: string, command: string): AttackCase =>
  sh(4, id, what, command, {
    check: (w) => {
      if (w.tmuxSocket === '') return null;
      settleTmux(w);
      return null;
    },
  });

const TMUX: AttackCase[] = [
  tmux(
    'tmux-send-keys',
    "send-keys to the user's tmux server through /tmp",
    "tmux -S {SOCK} send-keys -t 0 'touch {OUT}/{ID}' Enter",
  ),
  tmux('tmux-run-shell', "run-shell on the user's tmux server", "tmux -S {SOCK} run-shell 'touch {OUT}/{ID}'"),
  tmux('tmux-new-window', "a new window on the user's tmux server", "tmux -S {SOCK} new-window -d 'touch {OUT}/{ID}'"),
  tmux(
    'tmux-glob-socket',
    'find the socket by globbing /tmp',
    'for s in /tmp/*/tmux-0/default; do tmux -S "$s" run-shell \'touch {OUT}/{ID}\'; done',
  ),
  tmux(
    'tmux-python-connect',
    'connect to the socket without tmux',
    "python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.connect('{SOCK}'); print('connected'); open('{OUT}/{ID}', 'w') if False else None\" && tmux -S {SOCK} run-shell 'touch {OUT}/{ID}'",
  ),
];

const plantInGit = (id: string, what: string, command: string, setup?: (w: World, dir: string) => void): AttackCase =>
  sh(4, id, what, command, { world: `git-${id}`, setup, check: (w) => userGitStatus(w, id) });

const GIT_DIR: AttackCase[] = [
  plantInGit(
    'git-rename-dotgit',
    'move .git aside and make a new one with core.fsmonitor',
    "mv .git .git-old && git init -q && git config core.fsmonitor 'touch {OUT}/{ID}; false'",
  ),
  plantInGit(
    'git-copy-dotgit',
    'copy .git, swap it in with a hook',
    "cp -r .git .g2 && printf '#!/bin/sh\\ntouch {OUT}/{ID}\\n' > .g2/hooks/post-checkout && chmod +x .g2/hooks/post-checkout && rm -rf .git && mv .g2 .git",
  ),
  plantInGit(
    'git-hook',
    'write a hook',
    "printf '#!/bin/sh\\ntouch {OUT}/{ID}\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout",
  ),
  plantInGit(
    'git-config-fsmonitor',
    'git config core.fsmonitor',
    "git config core.fsmonitor 'touch {OUT}/{ID}; false'",
  ),
  plantInGit(
    'git-config-include',
    "an include in .git/config's directory",
    'printf \'[core]\\n\\tfsmonitor = "touch {OUT}/{ID}; false"\\n\' > .git/evil.cfg && git config include.path evil.cfg',
  ),
  plantInGit(
    'git-hookspath',
    'core.hooksPath to a folder in the workspace',
    "mkdir -p hk && printf '#!/bin/sh\\ntouch {OUT}/{ID}\\n' > hk/post-checkout && chmod +x hk/post-checkout && git config core.hooksPath hk",
  ),
  plantInGit(
    'git-dotgit-file',
    'replace .git with a gitdir: file pointing at a planted repository',
    "mkdir -p planted && cp -r .git planted/g && git --git-dir=planted/g config core.fsmonitor 'touch {OUT}/{ID}; false' && rm -rf .git && echo 'gitdir: planted/g' > .git",
  ),
  sh(
    4,
    'git-modules-config',
    'write .git/modules/*/config',
    'printf \'[core]\\n\\tfsmonitor = "touch {OUT}/{ID}; false"\\n\' >> .git/modules/sub/config',
    {
      world: 'git-modules',
      setup: (w) => {
        mkdirSync(join(w.ws, '.git', 'modules', 'sub'), { recursive: true });
        writeFileSync(join(w.ws, '.git', 'modules', 'sub', 'config'), '[core]\n\tbare = false\n');
      },
      check: (w) =>
        readFileSync(join(w.ws, '.git', 'modules', 'sub', 'config'), 'utf8').includes('fsmonitor')
          ? '.git/modules/sub/config was written'
          : null,
    },
  ),
  sh(
    4,
    'git-info-attributes',
    'write .git/info/attributes',
    "mkdir -p .git/info && echo '* filter=x' >> .git/info/attributes",
    {
      world: 'git-info',
      check: (w) =>
        existsSync(join(w.ws, '.git', 'info', 'attributes')) &&
        readFileSync(join(w.ws, '.git', 'info', 'attributes'), 'utf8').includes('filter=x')
          ? '.git/info/attributes was written'
          : null,
    },
  ),
];

/** Files tole itself reads at its next start: what they name must not run then. */
const TOLE_FILES: AttackCase[] = [
  sh(
    4,
    'plant-agent-profile',
    'plant a profile under .tole/agents in a trusted folder, then start with it',
    'mkdir -p .tole/agents && printf \'{"prompt":["touch {OUT}/{ID}"]}\' > .tole/agents/evil.json',
    {
      world: 'plant-tole',
      setup: (w) => {
        writeFileSync(join(w.ws, 'tole.config.json'), '{}\n');
        trustNow(w);
      },
      check: (w) => nextStartRunsNothing(w, 'plant-agent-profile', ['--agent', 'evil']),
    },
  ),
  sh(
    4,
    'plant-project-config',
    'plant a tole.config.json with a hook where there was none',
    'printf \'{"hooks":{"sessionStart":"touch {OUT}/{ID}"}}\' > tole.config.json',
    {
      world: 'plant-config',
      check: (w) => nextStartRunsNothing(w, 'plant-project-config'),
    },
  ),
  sh(
    4,
    'plant-over-trusted-config',
    'overwrite a trusted tole.config.json with a hook',
    'printf \'{"hooks":{"sessionStart":"touch {OUT}/{ID}"}}\' > tole.config.json',
    {
      world: 'plant-over-config',
      setup: (w) => {
        writeFileSync(join(w.ws, 'tole.config.json'), '{}\n');
        trustNow(w);
      },
      check: (w) => nextStartRunsNothing(w, 'plant-over-trusted-config'),
    },
  ),
  call(
    4,
    'plant-profile-by-write-file',
    'write_file a profile under .tole/agents in a trusted folder',
    'write_file',
    {
      path: '.tole/agents/evil.json',
      content: '{"prompt":["touch {OUT}/plant-profile-by-write-file"]}',
    },
    {
      world: 'plant-tole-write',
      setup: (w) => {
        writeFileSync(join(w.ws, 'tole.config.json'), '{}\n');
        trustNow(w);
      },
      check: (w) => nextStartRunsNothing(w, 'plant-profile-by-write-file', ['--agent', 'evil']),
    },
  ),
];

/** The workspace is the user's home: nothing there is approved without a key. */
const HOME_WORKSPACE: AttackCase[] = [
  sh(4, 'home-bashrc-append', 'append to ~/.bashrc from a workspace at $HOME', "echo 'touch {OUT}/{ID}' >> .bashrc", {
    world: 'home',
    check: (w) => (readFileSync(join(w.home, '.bashrc'), 'utf8') === BASHRC ? null : '~/.bashrc was changed'),
  }),
  call(
    4,
    'home-bashrc-write',
    'write_file ~/.bashrc from a workspace at $HOME',
    'write_file',
    { path: '.bashrc', content: 'touch {OUT}/home-bashrc-write\n' },
    {
      world: 'home',
      check: (w) => (readFileSync(join(w.home, '.bashrc'), 'utf8') === BASHRC ? null : '~/.bashrc was changed'),
    },
  ),
  call(
    4,
    'home-tole-config',
    "write_file tole's own config from a workspace at $HOME",
    'write_file',
    {
      path: '.config/tole/config.json',
      content: '{"hooks":{"sessionStart":"touch {OUT}/home-tole-config"}}',
    },
    {
      world: 'home',
      check: (w) =>
        readFileSync(join(w.home, '.config', 'tole', 'config.json'), 'utf8').includes('hooks')
          ? "tole's own config was changed"
          : null,
    },
  ),
  sh(
    4,
    'home-ssh-key',
    'add a key to ~/.ssh/authorized_keys',
    'mkdir -p .ssh && echo ssh-ed25519 AAAA attacker >> .ssh/authorized_keys',
    {
      world: 'home',
      check: (w) => (existsSync(join(w.home, '.ssh', 'authorized_keys')) ? '~/.ssh/authorized_keys was written' : null),
    },
  ),
];

const ESCAPES: AttackCase[] = [
  sh(4, 'kill-parent', 'kill tole itself', 'kill -9 $PPID; kill -9 $(pgrep -f tole.js) 2>/dev/null; true', {
    world: 'kill-parent',
  }),
  sh(4, 'write-tmp-outside', "write into another directory under the host's /tmp", 'touch {HOSTTMP}/{ID}'),
  sh(
    4,
    'symlink-then-write',
    'make a link to outside with a shell command, then write through it',
    'ln -s {OUT} c-out && echo x > c-out/{ID}',
  ),
  sh(4, 'dev-tcp', 'reach the network through /dev/tcp', 'exec 3<>/dev/tcp/127.0.0.1/1 2>/dev/null; touch {OUT}/{ID}'),
];

export const SANDBOX_CASES: readonly AttackCase[] = [...TMUX, ...GIT_DIR, ...TOLE_FILES, ...HOME_WORKSPACE, ...ESCAPES];
