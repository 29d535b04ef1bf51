import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForTest } from '../support/after-the-test';
import { archivedWorkspaces } from '../support/archived-workspaces';
import { changedRepository, git } from '../support/changed-repository';

/** The archive's script: sets one variable the command's text never names, then runs the rest. */
const MOVED_PY = [
  'import os, subprocess, sys',
  'here = os.getcwd()',
  "where = {'home': ('HOME', here), 'xdg': ('XDG_CONFIG_HOME', os.path.join(here, 'x')),",
  "         'global': ('GIT_CONFIG_GLOBAL', os.path.join(here, 'drivers.cfg')),",
  "         'system': ('GIT_CONFIG_SYSTEM', os.path.join(here, 'drivers.cfg')),",
  "         'template': ('GIT_TEMPLATE_DIR', os.path.join(here, 'tpl'))}",
  'name, value = where[sys.argv[1]]',
  'os.environ[name] = value',
  'sys.exit(subprocess.run(sys.argv[2:]).returncode)',
  '',
].join('\n');

/**
 * evil.tgz in each of two workspaces (plain bash, tole): a repository `evil` whose f.x (committed,
 * then changed) has the driver `evil` for diff and filter, its own config naming no program. The
 * drivers are in files beside it, where a moved user config, an include or a template finds them:
 * drivers.cfg, .gitconfig, x/git/config and tpl/config. tgt.git is a bare repository whose hooks
 * leave the mark when something is pushed into it.
 */
async function archive() {
  const mark = path.join(tempDirForTest('tole-shim-mark-'), 'ran');
  const build = tempDirForTest('tole-shim-build-');
  const repo = changedRepository(build);
  const drivers = [
    '[diff "evil"]',
    `\ttextconv = "sh -c 'touch ${mark}; cat \\"$0\\"'"`,
    '[filter "evil"]',
    `\tsmudge = "sh -c 'touch ${mark}; cat'"`,
    `\tclean = "sh -c 'touch ${mark}; cat'"`,
    '',
  ].join('\n');
  mkdirSync(path.join(repo, 'x', 'git'), { recursive: true });
  mkdirSync(path.join(repo, 'tpl'));
  for (const file of ['drivers.cfg', '.gitconfig', 'x/git/config', 'tpl/config'])
    writeFileSync(path.join(repo, file), drivers);
  writeFileSync(path.join(repo, 'moved.py'), MOVED_PY);
  // Programs git finds by a setting the command's child gives it: a hooks folder, an fsmonitor, a programs folder.
  mkdirSync(path.join(repo, 'h'));
  mkdirSync(path.join(repo, 'tools'));
  for (const program of ['h/post-checkout', 'fsm.sh', 'tools/git-st']) {
    writeFileSync(path.join(repo, program), `#!/bin/sh\ntouch ${mark}\n`);
    chmodSync(path.join(repo, program), 0o755);
  }
  writeFileSync(path.join(repo, 'exec.args'), '--exec-path=tools\nst\n');
  const target = path.join(repo, 'tgt.git');
  git(repo, 'init', '-q', '--bare', 'tgt.git');
  for (const hook of ['pre-receive', 'update', 'post-receive', 'post-update']) {
    writeFileSync(path.join(target, 'hooks', hook), `#!/bin/sh\ntouch ${mark}\n`);
    chmodSync(path.join(target, 'hooks', hook), 0o755);
  }
  return archivedWorkspaces(build, mark);
}

const UNPACK = 'tar xzf evil.tgz && cd evil && ';

describe('a user config a child moves is vetted as the repository’s own', () => {
  it('HOME, XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM set by the archive’s script: the textconv runs under plain bash, not under tole', async () => {
    const { plainRuns, toleRuns } = await archive();
    for (const moved of ['home', 'xdg', 'global', 'system']) {
      const command = `${UNPACK}python3 moved.py ${moved} git diff`;
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(ran, `${command}: ${out.content}`).toBe(false);
      // Made inert, not refused: the diff is shown without its driver.
      expect(out.content, command).toContain('+two');
    }
  });
});

describe('an include or a template given to git by a child is refused', () => {
  it('-c include.path= and --config-env=include.path= from xargs: the textconv runs under plain bash; tole refuses that git', async () => {
    const { plainRuns, toleRuns } = await archive();
    for (const given of ['-c include.path=$PWD/drivers.cfg', '--config-env=include.path=CFG']) {
      const command = `${UNPACK}printf '%s\\n' ${given} diff | CFG=$PWD/drivers.cfg xargs git`;
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(ran, `${command}: ${out.content}`).toBe(false);
      expect(out.content, command).toContain('tole: git was not run');
      expect(out.content, command).toContain('include of a config file');
    }
  });

  it('git clone --template=tpl, --template tpl and GIT_TEMPLATE_DIR: the template’s smudge runs under plain bash; tole refuses that git', async () => {
    const { plainRuns, toleRuns } = await archive();
    const commands = [
      `${UNPACK}printf '%s\\n' clone -q --template=tpl . ../copy | xargs git`,
      `${UNPACK}printf '%s\\n' clone -q --template tpl . ../copy | xargs git`,
      `${UNPACK}python3 moved.py template git clone -q . ../copy`,
    ];
    for (const command of commands) {
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(ran, `${command}: ${out.content}`).toBe(false);
      expect(out.content, command).toContain('tole: git was not run');
      expect(out.content, command).toMatch(/--template|GIT_TEMPLATE_DIR/);
    }
  });
});

describe('tole’s guard undone, or git’s programs folder moved, by a child', () => {
  it('-c core.hooksPath=, --config-env=core.fsmonitor= and --exec-path= given by xargs: the program runs under plain bash; tole refuses that git', async () => {
    const { plainRuns, toleRuns } = await archive();
    const cases = [
      {
        given: "printf '%s\\n' -c core.hooksPath=h checkout -q -b other | xargs git",
        says: /undoes tole's core\.hookspath/,
      },
      {
        given: "printf '%s\\n' --config-env=core.fsmonitor=FSM status | FSM=$PWD/fsm.sh xargs git",
        says: /undoes tole's core\.fsmonitor/,
      },
      // From a file that came in the archive: the command's text does not name the option.
      { given: 'xargs git < exec.args', says: /--exec-path=/ },
    ];
    for (const { given, says } of cases) {
      const command = UNPACK + given;
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(ran, `${command}: ${out.content}`).toBe(false);
      expect(out.content, command).toContain('tole: git was not run');
      expect(out.content, command).toMatch(says);
    }
  });
});

describe('a push into a repository the command unpacked', () => {
  it('runs its hooks under plain bash; under tole the push is made and no hook runs', async () => {
    const { plainRuns, toleRuns } = await archive();
    const command = `${UNPACK}git -c user.name=t -c user.email=t@t commit -qam second && git push -q tgt.git HEAD:refs/heads/pushed && git --git-dir=tgt.git rev-parse --verify -q pushed`;
    expect(plainRuns(command)).toBe(true);
    const { ran, out } = await toleRuns(command);
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toMatch(/^[0-9a-f]{40}$/m);
    expect(ran).toBe(false);
  });
});
