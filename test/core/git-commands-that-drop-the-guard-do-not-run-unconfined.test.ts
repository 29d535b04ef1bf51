/**
 * tole's guard travels in the command's environment (`GIT_CONFIG_COUNT` and the pairs it counts):
 * a command that unsets it, clears its environment or points git at another config file runs git
 * as if tole had read nothing, and the repository's filter runs. Such a command is refused
 * unconfined with what to do; it may still run in the sandbox.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardDrops } from '../../src/core/git-guard-drops';
import { withGitGuard } from '../../src/core/git-guard-env';
import { neutralSettings } from '../../src/core/git-repo-drivers';
import { runHookCommand } from '../../src/core/hooks/run-hook-command';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from './tools/temp-workspace';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** A repository whose textconv leaves a mark outside, and f.evil changed since its commit. */
async function hostileRepository() {
  const ws = await tempWorkspace();
  git(ws.root, 'init', '-q');
  writeFileSync(path.join(ws.root, 'f.evil'), 'one\n');
  writeFileSync(path.join(ws.root, '.gitattributes'), '*.evil diff=evil\n');
  git(ws.root, 'add', '-A');
  git(ws.root, 'commit', '-qm', 'first');
  const mark = path.join(ws.outside, 'ran');
  appendFileSync(
    path.join(ws.root, '.git', 'config'),
    `[diff "evil"]\n\ttextconv = "sh -c 'touch ${mark}; cat \\"$0\\"'"\n`,
  );
  appendFileSync(path.join(ws.root, 'f.evil'), 'two\n');
  // A global config the model wrote in the workspace (HOME=, GIT_CONFIG_GLOBAL=), picking a driver
  // of its own for g.txt: the repository's config never names it.
  writeFileSync(path.join(ws.root, 'g.txt'), 'one\n');
  git(ws.root, 'add', 'g.txt');
  git(ws.root, 'commit', '-qm', 'second');
  appendFileSync(path.join(ws.root, 'g.txt'), 'two\n');
  writeFileSync(path.join(ws.outside, 'attributes'), '*.txt diff=other\n');
  writeFileSync(
    path.join(ws.root, '.gitconfig'),
    `[core]\n\tattributesFile = ${path.join(ws.outside, 'attributes')}\n[diff "other"]\n\ttextconv = "sh -c 'touch ${mark}; cat \\"$0\\"'"\n`,
  );
  // A config file in the work tree the command's own `git -c include.path=` brings in.
  writeFileSync(path.join(ws.root, 'evil.cfg'), `[diff "evil"]\n\ttextconv = "sh -c 'touch ${mark}; cat \\"$0\\"'"\n`);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
  return { ws, env, mark };
}

/** Commands that drop or go around the guard; each runs the textconv under plain bash with the guard set. */
const DROPPING = [
  'unset GIT_CONFIG_COUNT; git diff',
  'env -u GIT_CONFIG_COUNT git diff',
  'env -i PATH="$PATH" git diff',
  'GIT_CONFIG_COUNT=0 git diff',
  'un""set GIT_CONFIG_""COUNT; git diff',
  "unset $'\\x47IT_CONFIG_COUNT'; git diff",
  'v=GIT_CONFIG_COUNT; unset $v; git diff',
  "bash -c 'unset GIT_CONFIG_COUNT; git diff'",
  '(export -n GIT_CONFIG_COUNT; git diff)',
  'exec -c bash -c "git diff"',
  "printf '%s\\n' -i git diff | xargs env",
  'HOME=$PWD git diff',
  'GIT_CONFIG_GLOBAL=.gitconfig git diff',
  'export XDG_CONFIG_HOME=$PWD/xdg; mkdir -p xdg/git; cp .gitconfig xdg/git/config; HOME=/nowhere git diff',
  // Found by the review: env's other options, a program name spelled at run time, the command's own git -c.
  'env --ignore-env PATH="$PATH" git diff',
  'env -C . -i PATH="$PATH" git diff',
  "env -S'-i PATH=/usr/bin:/bin git diff'",
  'setpriv --reset-env git diff',
  '$\'\\x65nv\' -i PATH="$PATH" git diff',
  '${E:-env} -i PATH="$PATH" git diff',
  'e=env; $e -i PATH="$PATH" git diff',
  'git -c include.path=$PWD/evil.cfg diff',
  'P=$PWD/evil.cfg git --config-env=include.path=P diff',
  // Read with the shell parser: code tole cannot read that touches the environment, a pipe into a shell, an alias.
  `python3 -c "import os,subprocess; os.environ.pop('GIT_CONFIG_COUNT'); subprocess.run(['git','diff'])"`,
  'perl -e \'delete $ENV{GIT_CONFIG_COUNT}; system("git diff")\'',
  `node -e 'delete process.env.GIT_CONFIG_COUNT; require("child_process").execSync("git diff", {stdio: "inherit"})'`,
  'eval "unset GIT_CONFIG_COUNT"; git diff',
  'x=\'unset GIT_CONFIG_COUNT\'; eval "$x"; git diff',
  'echo "unset GIT_CONFIG_COUNT; git diff" | bash',
  'bash <<EOF\nunset GIT_CONFIG_COUNT\ngit diff\nEOF',
  `git -c alias.x='!env -i PATH="$PATH" git diff' x`,
  '$(echo env) -i PATH="$PATH" git diff',
  'cat <<EOF | bash\nunset GIT_CONFIG_COUNT; git diff\nEOF',
  'source <(echo unset GIT_CONFIG_COUNT); git diff',
  `awk 'BEGIN { system("env -i PATH=/usr/bin:/bin git diff") }'`,
  // A program looked up by which, or echo's words piped into a shell, read as what they are; unless
  // the line gives which or echo another meaning, or the lookup finds nothing (the next word runs).
  '$(which env) -i PATH="$PATH" git diff',
  'which() { echo env; }; $(which python3) -i PATH="$PATH" git diff',
  '$(which tole-no-such-program) env -i PATH="$PATH" git diff',
  'echo "env -i PATH=$PATH git diff" | bash',
  'echo() { builtin echo env -i PATH="$PATH" git diff; }; echo git status | bash',
];

describe("a command that drops tole's git guard", () => {
  it('plain bash with the guard set runs the textconv for each', async () => {
    const { ws, env, mark } = await hostileRepository();
    const guarded = withGitGuard(env, neutralSettings(['diff.evil.textconv']));
    execFileSync('bash', ['-c', 'git diff'], { cwd: ws.root, env: guarded, stdio: 'ignore' });
    expect(existsSync(mark)).toBe(false);
    const ran = DROPPING.filter((command) => {
      execFileSync('bash', ['-c', command], { cwd: ws.root, env: guarded, stdio: 'ignore' });
      const made = existsSync(mark);
      rmSync(mark, { force: true });
      return made;
    });
    expect(ran).toEqual(DROPPING);
  });

  it('is refused unconfined through the bash tool, saying what and what to do, and nothing runs', async () => {
    const { ws, env, mark } = await hostileRepository();
    const bash = createBashTool({ workspaceRoot: ws.root, env });
    for (const command of DROPPING) {
      const out = await bash.execute({ command }, { ...ws.ctx, keypress: true });
      expect(out.ok, command).toBe(false);
      // No sandbox here: the words name only what can work (no key, no outside_sandbox runs it).
      expect(out.content, command).toContain('it is refused: there is no sandbox here');
      expect(out.content, command).toContain('Write the command without that');
      expect(out.content, command).not.toContain('outside_sandbox');
      expect(existsSync(mark), command).toBe(false);
    }
    const unset = await bash.execute({ command: DROPPING[0]! }, { ...ws.ctx, keypress: true });
    expect(unset.content).toContain('the command names GIT_CONFIG');
    const plain = await bash.execute({ command: 'git diff' }, { ...ws.ctx, keypress: true });
    expect(plain.ok, plain.content).toBe(true);
    expect(plain.content).toContain('+two');
    expect(existsSync(mark)).toBe(false);
  });

  it('is refused in a hook run unconfined', async () => {
    const { ws, env, mark } = await hostileRepository();
    const end = await runHookCommand({ command: DROPPING[1]!, cwd: ws.root, env, stdin: '', timeoutMs: 20_000 });
    expect(end.spawnError).toContain('env clearing or unsetting variables');
    expect(existsSync(mark)).toBe(false);
  });

  it("is refused when the command's own git -c undoes the guard: hooks of the work tree, a helper of --exec-path", async () => {
    const { ws, env, mark } = await hostileRepository();
    for (const [name, dir] of [
      ['pre-commit', 'hooks'],
      ['git-remote-foo', 'tools'],
    ] as const) {
      mkdirSync(path.join(ws.root, dir));
      writeFileSync(path.join(ws.root, dir, name), `#!/bin/sh\ntouch ${mark}\n`);
      chmodSync(path.join(ws.root, dir, name), 0o755);
    }
    const commands = [
      'git -c user.name=t -c user.email=t@t -c core.hooksPath=hooks commit -qam x',
      'git --exec-path=tools fetch foo::bar',
    ];
    const guarded = withGitGuard(env, neutralSettings(['diff.evil.textconv']));
    const ran = commands.filter((command) => {
      spawnSync('bash', ['-c', command], { cwd: ws.root, env: guarded, stdio: 'ignore' });
      const made = existsSync(mark);
      rmSync(mark, { force: true });
      return made;
    });
    expect(ran).toEqual(commands);
    const bash = createBashTool({ workspaceRoot: ws.root, env });
    for (const command of commands) {
      const out = await bash.execute({ command }, { ...ws.ctx, keypress: true });
      expect(out.content, command).toContain('it is refused: there is no sandbox here');
      expect(existsSync(mark), command).toBe(false);
    }
  });

  it('leaves commands alone that keep the guard', () => {
    for (const command of [
      'git diff',
      'unset FOO; git diff',
      'env FOO=1 git diff',
      'export PATH="$PATH:/opt/x"; make',
      'cd ~ && ls',
      'echo "$HOME"',
      'grep -r "password" src',
      'local x=$1',
      'env | grep "^TOLE_" | sort > env.txt',
      'env LANG=C sort -u words.txt',
      'git -c color.ui=always -c user.name=x commit -m "include.path"',
      'git --exec-path',
      'git log -c include/foo.h',
      'git show -c include.h core.hooksPath',
      '$EDITOR notes.txt',
      '"$PYTHON" script.py --verbose',
      "printf $'a\\tb\\n' | sort",
      'grep -rn sudo docs',
      'grep env -ri .',
      '/bin/grep -w su notes.txt && cat su.md',
      'echo use sudo here',
      'ls env su',
      'env > hook-env.txt',
      'env 2>/dev/null >>all.txt </dev/null',
      'env >out; cat out',
      // Words that are no program: a message, a pattern, text written to a file.
      'git commit -m "never use sudo here"',
      'git commit -m "fix env -i handling"',
      'git commit -m "it\'s done"',
      'git log --grep=env -i',
      'git log --grep env -i',
      'echo "unset GIT_CONFIG_COUNT" >> notes.md',
      'cat <<EOF > notes.md\nunset GIT_CONFIG_COUNT\nEOF',
      'git diff $(git merge-base main HEAD)',
      'python3 -c "print(1)"',
      // A lookup by which or command -v is the program it finds; echo's literal words piped into bash or sh are its code.
      '$(which python3) x.py',
      '`which python3` x.py',
      '"$(command -v node)" app.js',
      '$(which git) status',
      'echo "git status" | bash',
      "echo 'git log -1 --format=%s' | sh -s",
      'eval "echo hi"',
      "awk '{print $1}' f",
      'git diff | cat',
      'source venv/bin/activate',
    ])
      expect(guardDrops(command), command).toEqual([]);
  });

  it('reads the arguments of a program that may run them, and what a harmless program hands on', () => {
    for (const command of [
      'grep -l x . | xargs sudo git diff',
      'echo $(env -i git diff)',
      'cat `sudo git diff`',
      'rg --pre "sudo git" x',
      'find . -exec env -i git diff \\;',
      'FOO=1 grep x f; sudo git diff',
      'nice sudo git diff',
      'env > out -i git diff',
      'env >out -u GIT_CONFIG_COUNT git diff',
      // What the parser cannot read is read loosely: every word counts.
      'case x in a) sudo git diff;; esac',
      "git commit -m 'unclosed; sudo git diff",
      // A git subcommand that runs its arguments, a setting's command, a string a program runs.
      'git bisect run sudo git diff',
      'git rebase -x "env -i git diff" main',
      'ssh -o ProxyCommand="sudo nc %h %p" host',
      'ruby -e "ENV.clear; system(%q(git diff))"',
      'python3 -c "$CODE"',
      'eval "$x"',
      'echo "sudo git diff" | sh',
      'git log --grep sudo | xargs sudo git diff',
      'sh -c "$CMD"',
      // The lookup read as the program it names, and what may change it.
      '$(which sudo) git diff',
      '"$(which python3)" -c "import os; os.environ.clear()"',
      'which() { echo sudo; }; $(which python3) git diff',
      'alias which=false; $(which python3) x.py',
      '$(which -a git | tail -1) diff',
      '$(which git)/../git diff',
      '$(which file) sudo git diff',
      // echo piped into a shell: only literal words, no option, no backslash, bash or sh reading nothing else.
      'echo "sudo git diff" | bash',
      'echo -e "\\x73udo git diff" | bash',
      'echo "\\x73udo git diff" | bash',
      'echo "$CMD" | bash',
      'echo "git status" | bash -i',
      'echo "git status" | zsh',
      'enable -n echo; echo git status | bash',
      // Left refused. ssh-agent prints its socket's path unquoted, under TMPDIR (where it is not
      // setgid), which a command can set in ways the check cannot read: eval would run that text.
      'eval "$(ssh-agent)"',
      // A value may be run as a command line by what the command starts (GIT_PAGER='$FOO' git log
      // runs FOO's); "use sudo" reads like "unbuffer sudo git diff", where unbuffer runs sudo.
      'MSG="use sudo" ./notify.sh',
      `FOO="unbuffer sudo env -i git diff" GIT_PAGER='$FOO' git log`,
      'python3 -Ic"import os; os.environ.clear()"',
      'PROMPT_COMMAND="sudo git diff" bash -i',
      "PS1='$(env -i git diff)' bash -i",
    ])
      expect(guardDrops(command), command).not.toEqual([]);
  });

  it('names env given arguments it cannot read: xargs env, find -exec env {}', () => {
    for (const command of ['printf -- -i | xargs env', 'xargs -I{} env {} git diff < args', 'env "$@" git diff'])
      expect(guardDrops(command).join(), command).toContain('env clearing or unsetting');
  });

  it("names a shell started to read startup files, which set PATH without tole's git", () => {
    for (const command of [
      "bash -lc 'cd evil && git diff'",
      "sh -lc 'git diff'",
      "bash -l -c 'git diff'",
      "bash --login -c 'git diff'",
      "bash -i -c 'git diff'",
      "bash --rcfile rc -c 'git diff'",
      "zsh -c 'git diff'",
      "fish -c 'git diff'",
      'nice bash -l',
      "true && (dash -il -c 'git diff')",
      "su_helper=1 bash -ilc 'git diff'",
    ])
      expect(guardDrops(command).join(), command).toContain('to read startup files');
    for (const command of [
      '. /etc/profile; git diff',
      'source ~/.profile && git diff',
      'source "$HOME/.bashrc"; git diff',
      '. /etc/profile.d/local.sh; git diff',
    ])
      expect(guardDrops(command).join(), command).toContain("sources a shell's startup file");
    expect(guardDrops('exec -l bash').join()).toContain('exec -l or -a');
    for (const command of [
      "bash -c 'git diff'",
      'sh -c "git status"',
      'bash script.sh -l',
      'bash -e -x build.sh',
      'source venv/bin/activate',
      '. ./env.sh',
      'cat ~/.profile',
      'grep PATH /etc/profile',
      'git commit -m "read ~/.bashrc with bash -l"',
    ])
      expect(guardDrops(command), command).toEqual([]);
  });

  it('names a program that runs a command in an environment of its own, in command position only', () => {
    for (const command of [
      'tmux -L atk run-shell "cd evil && git diff"',
      'tmux new-window -d "git diff"',
      "tmux send-keys -t 0 'git diff' Enter",
      "screen -X stuff 'git diff\n'",
      'systemd-run --user git diff',
      'echo git diff | at now',
      "batch <<< 'git diff'",
      'ssh localhost git diff',
      'docker exec c git diff',
      'podman run -v "$PWD:/w" img git diff',
      'emacsclient -e \'(shell-command "git diff")\'',
      "nvim --server s --remote-send ':!git diff<CR>'",
      'xargs ssh host < hosts',
      'timeout 5 ssh host git diff',
      'case x in a) tmux run-shell "git diff";; esac',
      // tmux that only reads is allowed (below); a format or a second command can run one.
      "tmux display-message '#(git diff)'",
      'tmux ls \\; run-shell "git diff"',
      'tmux',
      'tmux -c "git diff"',
      'tmux -f evil.conf ls',
      'tmux run "git diff"',
      'xdg-open run.desktop',
      'gio launch run.desktop',
    ])
      expect(guardDrops(command).join(), command).toMatch(
        /with an environment of its own|in an environment of its own/,
      );
    for (const command of [
      'git commit -m "fix ssh and tmux"',
      'git log --grep screen',
      'git remote add origin ssh://host/x.git',
      'man tmux',
      'grep -rn ssh docs',
      'cat tmux.conf',
      'ssh-keygen -l -f key.pub',
      'docker ps',
      'docker build -t x .',
      'vim notes.txt',
      'echo see you at noon',
      "tmux display-message 'tole is done'",
      'tmux -S /tmp/s has-session -t victim',
      'tmux -L x list-panes -F "#{pane_id}"',
      // find's start folder `.` is no source: a wrapper runs programs, never the shell's builtins.
      "find . -name '*.ts'",
      "find . -name '*.evil' -execdir git diff \\;",
      "find . -name '*.log' -exec rm {} +",
    ])
      expect(guardDrops(command), command).toEqual([]);
  });

  it("names a command that looks up tole's git and changes files, which may remove or replace it", () => {
    for (const command of [
      'rm -f $(command -v git) && git diff',
      'rm -rf $(dirname $(command -v git)) && git diff',
      'g=$(command -v git) && r=$(type -ap git | sed -n 2p) && rm -f $g && cp $r $g && git diff',
      'echo "#!/bin/sh" > "$(which git)"; git diff',
      'g=$(which git); chmod -x $g; git diff',
      'ln -sf /usr/local/bin/other "`command -V git`"',
      'command -v git | xargs rm',
      "sed -i 's/x/y/' $(which git)",
      'find "$(dirname "$(type -P git)")" -name git -delete',
      'printf x | tee $(whereis git)',
    ])
      expect(guardDrops(command).join(), command).toContain('looks up where git is');
    for (const command of [
      'command -v git && git status',
      'which git',
      'type -a git',
      'command -v git >/dev/null && sed -n 1p notes.md',
      'rm -rf build && git status',
      'cp a b; git diff',
      'which python3 > where.txt',
    ])
      expect(guardDrops(command), command).toEqual([]);
  });

  it('reads the ways around those found by attacking them: quotes, a name at run time, a variable, interpreter code', () => {
    for (const command of [
      'bash "-lc" \'git diff\'',
      "bash '--login' -c 'git diff'",
      "command bash -l -c 'git diff'",
      "timeout 5 bash -l -c 'git diff'",
      "env bash -l -c 'git diff'",
      "b=bash; $b -lc 'git diff'",
      '\\tmux run-shell "git diff"',
      "'tmux' run-shell 'git diff'",
      "t=tmux; $t run-shell 'git diff'",
      "${T:-tmux} run-shell 'git diff'",
      "stdbuf -oL tmux run-shell 'git diff'",
      'sshpass -p x ssh host git diff',
      'gnome-terminal -- git diff',
      'kitty @ launch git diff',
      `python3 -c "import os; os.system('tmux run-shell x')"`,
      `python3 -c "import subprocess; subprocess.run(['bash', '-lc', 'git diff'])"`,
      `awk 'BEGIN { system("tmux run-shell x") }'`,
      'f=/etc/profile; . $f; git diff',
      "BASH_ENV=/etc/profile bash -c 'git diff'",
      "export BASH_ENV=~/.profile; bash -c 'git diff'",
      'ENV=/etc/profile sh -i',
      'rm -f "$(command -v git)"',
      'x=$(command -v git); : > "$x"',
      'exec 3>$(which git)',
      'cp /bin/true $(type -P git)',
      'perl -pi -e 1 $(which git)',
      'git=$(command -v git); rm $git',
      'for g in $(which -a git); do rm $g; done',
      '. /etc/prof*; git diff',
      '. /etc/profil?; git diff',
      'builtin . /etc/prof*; git diff',
      'command source ~/.bash*; git diff',
      "bash -O extglob -l -c 'git diff'",
      "bash -o posix -l -c 'git diff'",
      "script -qc 'git diff' /dev/null",
      'script -q typescript',
      'run0 git diff',
      // Programs that run the command their arguments give, read as wrappers.
      'flock /tmp/l tmux run-shell "git diff"',
      'strace -f -o /dev/null ssh host git diff',
      'parallel tmux run-shell ::: x',
      'unshare -U bash -l -c "git diff"',
      'flock l /usr/bin/git diff',
    ])
      expect(guardDrops(command), command).not.toEqual([]);
    for (const command of [
      '"$EDITOR" notes.txt',
      `python3 -c "import subprocess; subprocess.run(['ls', '-l'])"`,
      `node -e "console.log('ssh-keygen')"`,
      'export BASH_ENV=$PWD/env.sh; git diff',
      'grep PATH ~/.profile',
      'for f in ./scripts/*.sh; do "$f"; done',
      'find . -type d -name script',
      'source .env',
      '. /etc/os-release; echo $ID',
      'npm run script',
    ])
      expect(guardDrops(command), command).toEqual([]);
  });

  it('names sudo, doas and su wherever the command runs them', () => {
    for (const command of ['sudo git diff', 'find . -exec doas git diff \\;', 'true && /bin/su -c "git diff"'])
      expect(guardDrops(command).join(), command).toContain('with an environment of its own');
  });
});
