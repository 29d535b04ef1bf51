/**
 * A repository that exists only once the command runs (unpacked from an archive, copied, written
 * by a here-doc, made by git init) was not there when tole vetted the call, and a guard dropped by
 * a Python, Perl or Node child is not in the command's text. Every git a command tole runs
 * unconfined starts goes through tole's git (git-shim-script.ts), which vets the repository git
 * finds when it starts. Each case runs the mark under plain bash (the danger is real) and not
 * through the bash tool with a key.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptText } from '../../src/cli/prompt-text';
import { guardDrops } from '../../src/core/git-guard-drops';
import { HookRunner } from '../../src/core/hooks/hook-runner';
import { runHookCommand } from '../../src/core/hooks/run-hook-command';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { WRITE_FILE_PRE_TOOL_USE } from '../support/hook-payloads';
import { tempDirForTest } from '../support/after-the-test';
import { archivedWorkspaces } from '../support/archived-workspaces';
import { changedRepository } from '../support/changed-repository';
import { tempWorkspace } from '../core/tools/temp-workspace';

const DROP_PY = [
  'import os, subprocess, sys',
  "for name in [n for n in os.environ if n.startswith('GIT_')]:",
  '    del os.environ[name]',
  'sys.exit(subprocess.run(sys.argv[1:]).returncode)',
  '',
].join('\n');

/** A shell command that leaves `mark` (and prints its first argument's file, as a textconv must). */
const marking = (mark: string): string => `sh -c 'touch ${mark}; cat "$0" 2>/dev/null; true'`;

/**
 * A repository `evil` (f.x committed, then changed; *.x use the driver `evil`) whose config gets
 * `config`, packed as evil.tgz and evil.zip into each of two workspaces: one for plain bash, one for
 * tole. The repository itself is gone before anything runs: only the archives are there.
 */
async function archivedRepository(config: (mark: string) => string, files: Record<string, string> = {}) {
  const mark = path.join(tempDirForTest('tole-shim-mark-'), 'ran');
  const build = tempDirForTest('tole-shim-build-');
  const repo = changedRepository(build);
  appendFileSync(path.join(repo, '.git', 'config'), config(mark));
  // The archive's own script that runs a command with every GIT_ variable taken out: the command's text never shows it.
  writeFileSync(path.join(repo, 'drop.py'), DROP_PY);
  writeFileSync(path.join(repo, 'cred.txt'), 'protocol=https\nhost=tole-test.invalid\nusername=u\n');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(repo, name), text.replaceAll('MARK', mark));
  return { mark, ...(await archivedWorkspaces(build, mark, { zip: true })) };
}

const TEXTCONV = (mark: string) => `[diff "evil"]\n\ttextconv = "${marking(mark).replaceAll('"', '\\"')}"\n`;

describe('a repository the command makes runs no program of its own under tole', () => {
  it('unpacked, copied, written by a here-doc or made by git init: the textconv runs under plain bash, not under tole', async () => {
    const { plainRuns, toleRuns, mark } = await archivedRepository(TEXTCONV);
    const commands = [
      'tar xzf evil.tgz && cd evil && git diff',
      'unzip -q evil.zip && cd evil && git log -p -1 >/dev/null && git diff',
      'mkdir t && tar xzf evil.tgz -C t && cp -r t/evil copy && cd copy && git diff',
      // git init, then a here-doc writes a driver into the config it made.
      [
        'git init -q h && cd h && echo one > f.x && echo "*.x diff=evil" > .gitattributes && git add -A',
        'git -c user.name=t -c user.email=t@t commit -qm one && echo two >> f.x',
        `cat >> .git/config <<'EOF'\n[diff "evil"]\n\ttextconv = "${marking(mark).replaceAll('"', '\\"')}"\nEOF\ngit diff`,
      ].join(' && '),
    ];
    for (const command of commands) {
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(out.ok, `${command}: ${out.content}`).toBe(true);
      expect(ran, command).toBe(false);
    }
  });

  it('the command writes the driver itself with git config: it is made inert when git diff starts', async () => {
    const { plainRuns, toleRuns, mark } = await archivedRepository(() => '');
    const command = `tar xzf evil.tgz && cd evil && git config diff.evil.textconv "${marking(mark).replaceAll('"', '\\"')}" && git diff`;
    expect(plainRuns(command)).toBe(true);
    const { ran, out } = await toleRuns(command);
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('+two');
    expect(ran).toBe(false);
  });

  it('a key tole does not know in the made repository refuses that git, saying what was found and what to do', async () => {
    const { toleRuns } = await archivedRepository((mark) => `${TEXTCONV(mark)}[some]\n\tunknown = x\n`);
    const { ran, out } = await toleRuns('tar xzf evil.tgz && cd evil && git status');
    expect(ran).toBe(false);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('tole: git was not run');
    expect(out.content).toContain('some.unknown (in .git/config)');
    expect(out.content).toContain('outside_sandbox');
    expect(out.content).toContain('trustedGitKeys');
  });
});

describe('a guard dropped where tole cannot read it is added again when git starts', () => {
  it('Python, Perl, Node, eval, xargs, find -exec, make and a dashed git run the textconv under plain bash, not under tole', async () => {
    const { plainRuns, toleRuns } = await archivedRepository(TEXTCONV);
    const unpack = 'tar xzf evil.tgz && cd evil && ';
    const commands = [
      `python3 -c "import os,subprocess; [os.environ.pop(k) for k in list(os.environ) if k.startswith('GIT_')]; subprocess.run(['git','diff'])"`,
      `perl -e 'for (keys %ENV) { delete $ENV{$_} if /^GIT_/ } system("git", "diff")'`,
      `node -e "for (const k of Object.keys(process.env)) if (k.startsWith('GIT_')) delete process.env[k]; require('child_process').execFileSync('git', ['diff'], { stdio: 'inherit' })"`,
      'python3 drop.py git diff',
      'python3 drop.py bash -c "git diff"',
      `eval "$(printf 'unset GIT_%s' CONFIG_COUNT)"; git diff`,
      'echo diff | xargs git',
      'find . -maxdepth 0 -exec git diff \\;',
      `printf 'all:\\n\\tgit diff\\n' > Makefile && make -s`,
      '"$(git --exec-path)/git-diff"',
      `python3 -c "import os,subprocess; os.environ['GIT_DIR']='.git'; os.chdir('/'); subprocess.run(['git','--work-tree=' + os.environ['OLDPWD'] + '/evil','diff'], env={**os.environ, 'GIT_DIR': os.environ['OLDPWD'] + '/evil/.git'})"`,
    ];
    for (const tail of commands) {
      const command = unpack + tail;
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(ran, `${command}: ${out.content}`).toBe(false);
    }
  });

  it('a hostile environment for tole’s git itself (BASH_ENV, exported functions, SHELLOPTS, IFS, POSIXLY_CORRECT, BASH_COMPAT) changes nothing', async () => {
    const { plainRuns, toleRuns } = await archivedRepository(TEXTCONV, {
      'env.sh': '__tole_refuse() { :; }\n__tole_is_program() { return 1; }\nexec() { command exec "$@"; }\n',
    });
    const unpack = 'tar xzf evil.tgz && cd evil && ';
    const commands = [
      'export BASH_ENV=$PWD/env.sh; git diff',
      '__tole_is_program() { return 1; }; mapfile() { :; }; wait() { :; }; export -f __tole_is_program mapfile wait; git diff',
      'export SHELLOPTS=xtrace:noglob BASHOPTS=nocasematch IFS=_ POSIXLY_CORRECT=1 BASH_COMPAT=31; git diff',
      'export __tole_real=/bin/true __tole_program_keys=x __tole_vet=; git diff',
    ];
    for (const tail of commands) {
      const command = unpack + tail;
      const { ran, out } = await toleRuns(command);
      expect(ran, `${command}: ${out.content}`).toBe(false);
      expect(out.content, command).toContain('+two');
    }
    // The first runs the mark under plain bash: the repository's textconv, nothing of the environment.
    expect(plainRuns(unpack + commands[0])).toBe(true);
  });
});

describe('every program a made repository names, with the guard dropped by a child', () => {
  /** `args` run by the archive's drop.py, which takes every GIT_ variable out of git's environment. */
  const dropAndRun = (args: string[], input = '') => `python3 drop.py ${args.join(' ')}${input}`;
  const cases: { name: string; config: (mark: string) => string; run: string; files?: Record<string, string> }[] = [
    { name: 'fsmonitor', config: (m) => `[core]\n\tfsmonitor = "${marking(m)}"\n`, run: dropAndRun(['git', 'status']) },
    {
      name: 'a hook',
      config: () => '[core]\n\thooksPath = hooks-here\n',
      run: `mkdir -p hooks-here && cp hook hooks-here/post-checkout && chmod +x hooks-here/post-checkout && ${dropAndRun(['git', 'checkout', '-q', '-b', 'other'])}`,
      files: { hook: '#!/bin/sh\ntouch MARK\n' },
    },
    {
      name: 'a clean filter',
      config: (m) => `[filter "evil"]\n\tclean = "${marking(m)}"\n`,
      run: dropAndRun(['git', 'add', 'f.x']),
    },
    {
      name: 'an external diff',
      config: (m) => `[diff]\n\texternal = "${marking(m)}"\n`,
      run: dropAndRun(['git', 'diff']),
    },
    {
      name: 'a credential helper',
      // The helper gives the password, so git asks no terminal.
      config: (m) => `[credential]\n\thelper = "!f() { touch ${m}; echo password=x; }; f"\n`,
      run: dropAndRun(['git', 'credential', 'fill'], ' < cred.txt'),
    },
    {
      name: 'core.sshCommand',
      config: (m) => `[core]\n\tsshCommand = "${marking(m)}"\n`,
      run: dropAndRun(['git', 'ls-remote', 'ssh://tole-test.invalid/x']),
    },
    {
      name: 'core.editor (git commit without -m)',
      config: (m) => `[core]\n\teditor = "${marking(m)}"\n[user]\n\tname = t\n\temail = t@t\n`,
      run: `GIT_EDITOR= git add f.x; ${dropAndRun(['git', 'commit'])}`,
    },
    { name: 'a ! alias', config: (m) => `[alias]\n\tst = "!${marking(m)}"\n`, run: dropAndRun(['git', 'st']) },
    {
      name: 'an include in the work tree',
      config: () => '[include]\n\tpath = ../evil.cfg\n',
      run: dropAndRun(['git', 'diff']),
      files: { 'evil.cfg': `[diff "evil"]\n\ttextconv = "sh -c 'touch MARK; cat \\"$0\\"'"\n` },
    },
    {
      name: 'an includeIf whose condition holds',
      config: () => '[includeIf "gitdir:**/evil/"]\n\tpath = ../evil.cfg\n',
      run: dropAndRun(['git', 'diff']),
      files: { 'evil.cfg': `[diff "evil"]\n\ttextconv = "sh -c 'touch MARK; cat \\"$0\\"'"\n` },
    },
  ];
  for (const each of cases)
    it(`${each.name}: runs under plain bash, not under tole`, async () => {
      const { plainRuns, toleRuns } = await archivedRepository(each.config, each.files);
      const command = `tar xzf evil.tgz && cd evil && ${each.run}`;
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(ran, `${command}: ${out.content}`).toBe(false);
    });
});

describe('where git finds its repository, tole’s git finds the same one', () => {
  it('a worktree’s config.worktree, a symlinked .git and a .git file pointing elsewhere', async () => {
    const { plainRuns, toleRuns, mark } = await archivedRepository(() => '');
    const section = `[diff "evil"]\n\ttextconv = "${marking(mark).replaceAll('"', '\\"')}"\n`;
    const write = (file: string) => `cat >> ${file} <<'EOF'\n${section}EOF\n`;
    const commands = [
      `tar xzf evil.tgz && cd evil && git config extensions.worktreeConfig true && ${write('.git/config.worktree')}git diff`,
      `tar xzf evil.tgz && mv evil/.git gd && ln -s ../gd evil/.git && ${write('gd/config')}cd evil && git diff`,
      `tar xzf evil.tgz && mv evil/.git gd2 && echo "gitdir: ../gd2" > evil/.git && ${write('gd2/config')}cd evil && git diff`,
    ];
    for (const command of commands) {
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(out.ok, `${command}: ${out.content}`).toBe(true);
      expect(ran, command).toBe(false);
    }
  });
});

describe('a git other than tole’s, named in the command, is a guard drop', () => {
  it('a path to git, command -p, hash -p and a PATH that does not keep tole’s first run the textconv under plain bash; tole refuses them', async () => {
    const { plainRuns, toleRuns } = await archivedRepository(TEXTCONV);
    const unpack = 'tar xzf evil.tgz && cd evil && ';
    const commands = [
      '/usr/bin/git diff',
      'command -p git diff',
      'hash -p /usr/bin/git git; git diff',
      'PATH=/usr/bin:/bin git diff',
      'export PATH=/usr/bin:$PATH; git diff',
      'env PATH=/bin git diff',
      'echo diff | xargs /usr/bin/git',
      `python3 -c "import subprocess; subprocess.run(['/usr/bin/git', 'diff'])"`,
      '"$(dirname "$(git --exec-path)")"/../bin/git diff',
    ];
    for (const tail of commands) {
      const command = unpack + tail;
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(ran, command).toBe(false);
      expect(out.ok, command).toBe(false);
      expect(out.content, command).toMatch(/git by a path|git by the path|sets PATH|-p, which finds a git/);
    }
  });

  it('PATH kept after tole’s, command -v, a folder named git and git’s own -p are not', () => {
    for (const command of [
      'PATH=$PATH:/opt/x make',
      'export PATH="$PATH:$HOME/.local/bin" && tool',
      'PYTHONPATH=. pytest && LD_LIBRARY_PATH=lib ./a.out',
      'command -v git && command git log -p',
      'cd ~/src/git && make && git log -p',
    ])
      expect(guardDrops(command), command).toEqual([]);
  });
});

describe('the gits git itself starts pass tole’s git too', () => {
  it('git submodule foreach git diff in a made repository’s submodule: its textconv runs under plain bash, not under tole', async () => {
    const { plainRuns, toleRuns, mark } = await archivedRepository(() => '');
    const section = `[diff "evil"]\n\ttextconv = "${marking(mark).replaceAll('"', '\\"')}"\n`;
    const command = [
      'tar xzf evil.tgz && cp -r evil subsrc && cd evil',
      'GIT_ALLOW_PROTOCOL=file git submodule -q add ../subsrc sub',
      'echo three >> sub/f.x',
      `cat >> .git/modules/sub/config <<'EOF'\n${section}EOF\ngit submodule -q foreach git diff`,
    ].join(' && ');
    expect(plainRuns(command)).toBe(true);
    const { ran, out } = await toleRuns(command);
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('+three');
    expect(ran).toBe(false);
  });
});

describe('ordinary git work is unchanged under tole’s git', () => {
  it('init, commit, stdin, stash, branches, a local clone, a submodule and git config run as under plain bash', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({
      workspaceRoot: ws.root,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside },
    });
    const command = [
      'git init -q r && cd r && git config user.name t && git config user.email t@t',
      'echo one > a && git add a && git commit -qm one',
      'echo hi | git hash-object --stdin',
      'echo two >> a && git stash -q && git stash pop -q && git commit -qam two',
      'git checkout -qb side && git checkout -q - && git log --oneline | wc -l',
      'cd .. && git clone -q r c && git -C c log -1 --format=%s',
      'cd r && GIT_ALLOW_PROTOCOL=file git submodule -q add ../c sub && git commit -qm sub && git submodule foreach -q git log -1 --format=in-sub-%s',
      'git config --get user.name && git --version >/dev/null && git -C .. status --short r 2>&1 | head -1',
    ].join(' && ');
    const out = await bash.execute({ command }, { ...ws.ctx, keypress: true });
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('45b983be36b73c0788dc9cbcb76cbb80fc7bb057');
    expect(out.content).toMatch(/^2$/m);
    expect(out.content).toContain('two');
    expect(out.content).toContain('in-sub-two');
    expect(out.content).toMatch(/^t$/m);
  });
});

describe('tole’s git folder removed between calls', () => {
  it('is written again before the next unconfined call, so PATH never falls through to the real git', async () => {
    const { toleRuns, plainRuns } = await archivedRepository(TEXTCONV);
    const where = await toleRuns('command -v git');
    const shimGit = where.out.content.split('\n')[0]!;
    expect(shimGit).toMatch(/tole-git-.*\/bin\/git$/);
    rmSync(path.dirname(path.dirname(shimGit)), { recursive: true, force: true });
    const command = 'tar xzf evil.tgz && cd evil && python3 drop.py git diff';
    expect(plainRuns(command)).toBe(true);
    const { ran, out } = await toleRuns(command);
    expect(ran, out.content).toBe(false);
    expect(out.content).toContain('+two');
  });
});

describe('tole’s git folder changed between calls', () => {
  /** The shim's folder, learned from a first unconfined call, changed by `change`; then the attack runs. */
  async function changedThenAttacked(change: (folder: string, realGit: string) => void): Promise<void> {
    const { toleRuns, plainRuns } = await archivedRepository(TEXTCONV);
    const where = await toleRuns('command -v git');
    const shimGit = where.out.content.split('\n')[0]!;
    expect(shimGit).toMatch(/tole-git-.*\/bin\/git$/);
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    change(path.dirname(path.dirname(shimGit)), realGit);
    const command = 'tar xzf evil.tgz && cd evil && python3 drop.py git diff';
    expect(plainRuns(command)).toBe(true);
    const { ran, out } = await toleRuns(command);
    expect(ran, out.content).toBe(false);
    expect(out.content).toContain('+two');
  }

  it('is written again when its script was rewritten to run the real git, its mode kept', async () => {
    await changedThenAttacked((folder, realGit) => {
      const script = path.join(folder, 'bin', 'git');
      chmodSync(script, 0o755);
      writeFileSync(script, `#!/bin/sh\nexec ${realGit} "$@"\n`);
      chmodSync(script, 0o555);
    });
  });

  it('is written again when its bin folder was swapped for a link to a folder holding the real git', async () => {
    await changedThenAttacked((folder, realGit) => {
      const elsewhere = path.join(folder, 'elsewhere');
      mkdirSync(elsewhere);
      symlinkSync(realGit, path.join(elsewhere, 'git'));
      rmSync(path.join(folder, 'bin'), { recursive: true, force: true });
      symlinkSync(elsewhere, path.join(folder, 'bin'));
    });
  });

  it('is written again when its script was replaced by a link to the real git', async () => {
    await changedThenAttacked((folder, realGit) => {
      const bin = path.join(folder, 'bin');
      rmSync(path.join(bin, 'git'));
      symlinkSync(realGit, path.join(bin, 'git'));
    });
  });
});

describe('hooks and prompt commands, run unconfined, pass tole’s git too', () => {
  const unpack = 'tar xzf evil.tgz && cd evil && ';
  // The repository made by the command, and the guard dropped by the archive's own script.
  const attacks = ['git diff', 'python3 drop.py git diff', 'python3 drop.py bash -c "git diff"'];

  it('a user’s hook: the made repository’s textconv runs under plain bash, not in the hook', async () => {
    const { plainRuns, toleWs, toleEnv, mark, clean } = await archivedRepository(TEXTCONV);
    for (const tail of attacks) {
      const command = unpack + tail;
      expect(plainRuns(command), command).toBe(true);
      clean();
      const hooks = HookRunner.create({ config: { preToolUse: command }, cwd: toleWs.root, env: toleEnv });
      const outcome = await hooks.run(WRITE_FILE_PRE_TOOL_USE, { failClosed: true });
      expect(existsSync(mark), `${command}: ${JSON.stringify(outcome.runs)}`).toBe(false);
      expect(outcome.runs[0]!.stdout, command).toContain('+two');
    }
  });

  it('a prompt command: the same, and its output is the prompt', async () => {
    const { plainRuns, toleWs, toleEnv, mark, clean } = await archivedRepository(TEXTCONV);
    for (const tail of attacks) {
      const command = unpack + tail;
      expect(plainRuns(command), command).toBe(true);
      clean();
      const text = await promptText([command], { origin: 'test', cwd: toleWs.root, env: toleEnv });
      expect(existsSync(mark), command).toBe(false);
      expect(text, command).toContain('+two');
    }
  });

  it('a hook whose repository has a key tole cannot vouch for is refused when its git starts, saying so', async () => {
    const { toleWs, toleEnv, mark } = await archivedRepository((m) => `${TEXTCONV(m)}[some]\n\tunknown = x\n`);
    const end = await runHookCommand({
      command: `${unpack}git status`,
      cwd: toleWs.root,
      env: toleEnv,
      stdin: '',
      timeoutMs: 20_000,
    });
    expect(existsSync(mark)).toBe(false);
    expect(end.exitCode).toBe(128);
    expect(end.stderr).toContain('tole: git was not run');
    expect(end.stderr).toContain('some.unknown (in .git/config)');
  });

  it('a hook’s git folder removed between runs is written again, not fallen through to the real git', async () => {
    const { plainRuns, toleWs, toleEnv, mark, clean } = await archivedRepository(TEXTCONV);
    const run = (command: string) =>
      runHookCommand({ command, cwd: toleWs.root, env: toleEnv, stdin: '', timeoutMs: 20_000 });
    const where = await run('command -v git');
    const shimGit = where.stdout.trim();
    expect(shimGit).toMatch(/tole-git-.*\/bin\/git$/);
    rmSync(path.dirname(path.dirname(shimGit)), { recursive: true, force: true });
    const command = `${unpack}python3 drop.py git diff`;
    expect(plainRuns(command)).toBe(true);
    clean();
    const end = await run(command);
    expect(existsSync(mark), end.stderr).toBe(false);
    expect(end.stdout).toContain('+two');
  });
});
