/**
 * Ways a repository or a command got a program past tole's git (git-shim-script.ts), each found by
 * an attack and each closed: every case first runs the attack under plain git (the mark is made:
 * the danger is real), then with tole's git first on PATH, as a command tole runs unconfined gets
 * it (no mark; git refused or ran nothing of the repository's).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { vetEntries } from '../../src/core/git-repo-drivers';
import { installGitShim } from '../../src/core/tools/git-shim';
import { tempDirForTest } from '../support/after-the-test';
import { changedRepository } from '../support/changed-repository';
import { tempWorkspace } from '../core/tools/temp-workspace';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

const PATH = process.env['PATH'] ?? '/usr/bin:/bin';

/** A shell command that leaves `mark` (and prints its first argument's file, as a textconv must). */
const marking = (mark: string): string => `sh -c 'touch ${mark}; cat "$0" 2>/dev/null; true'`;

/** A config text whose diff driver `evil` and filter `evil` leave `mark`. */
const drivers = (mark: string): string =>
  [
    '[diff "evil"]',
    `\ttextconv = "${marking(mark).replaceAll('"', '\\"')}"`,
    '[filter "evil"]',
    `\tsmudge = "sh -c 'touch ${mark}; cat'"`,
    `\tclean = "sh -c 'touch ${mark}; cat'"`,
    '',
  ].join('\n');

/**
 * A workspace holding `evil` (f.x committed, then changed; *.x use the driver `evil`, which its own
 * config does not define) and drivers.cfg beside it defining the driver; tole's git installed for it.
 */
async function setUp() {
  const ws = await tempWorkspace();
  const mark = path.join(tempDirForTest('tole-shimfix-mark-'), 'ran');
  const repo = changedRepository(ws.root);
  writeFileSync(path.join(ws.root, 'drivers.cfg'), drivers(mark));
  // A template folder (as an archive may bring one) whose config defines the driver.
  mkdirSync(path.join(ws.root, 'tpl'));
  writeFileSync(path.join(ws.root, 'tpl', 'config'), drivers(mark));
  const env = { PATH, HOME: ws.outside };
  const shim = await installGitShim(ws.root, env, []);
  if (shim === null) throw new Error('no git on PATH');
  const run = (command: string, shimmed: boolean, cwd = repo, tail = '') => {
    rmSync(mark, { force: true });
    const result = spawnSync('bash', ['-c', command], {
      cwd,
      env: { ...env, PATH: `${shimmed ? `${shim.binDir}:` : ''}${PATH}${tail}` },
      encoding: 'utf8',
      input: '',
      timeout: 20_000,
    });
    const ran = existsSync(mark);
    rmSync(mark, { force: true });
    return { ran, stderr: result.stderr };
  };
  return {
    ws,
    repo,
    mark,
    shim,
    /** Expects the mark under plain git and none under tole's git; returns tole's git's stderr. */
    check(command: string, cwd = repo, tail = ''): string {
      const plain = run(command, false, cwd, tail);
      expect(plain.ran, `plain git: ${command}\n${plain.stderr}`).toBe(true);
      const tole = run(command, true, cwd, tail);
      expect(tole.ran, `tole's git: ${command}\n${tole.stderr}`).toBe(false);
      return tole.stderr;
    },
    /** Expects no mark under tole's git; returns its stderr (for an attack plain git runs only now and then). */
    refused(command: string): string {
      const tole = run(command, true);
      expect(tole.ran, `tole's git: ${command}\n${tole.stderr}`).toBe(false);
      return tole.stderr;
    },
  };
}

describe("holes an attack found in tole's git are closed", () => {
  it('#7: --config-env NAME=VAR as two words is vetted like --config-env=NAME=VAR', async () => {
    const { check, ws } = await setUp();
    const cfg = path.join(ws.root, 'drivers.cfg');
    expect(check(`C=${cfg} git --config-env include.path=C diff`)).toMatch(/include of a config file/);
    expect(check(`printf '%s\\n' --config-env include.path=C diff | C=${cfg} xargs git`)).toMatch(/include/);
  });

  it("#14: a repository's core.gitProxy (git takes the first value, so no later inert one undoes it) is refused, before the run too", async () => {
    const { check, repo, mark } = await setUp();
    writeFileSync(path.join(repo, 'proxy.sh'), `#!/bin/sh\ntouch ${mark}\n`);
    chmodSync(path.join(repo, 'proxy.sh'), 0o755);
    git(repo, 'config', 'core.gitProxy', './proxy.sh');
    expect(check('git ls-remote git://example.invalid/x')).toMatch(/core\.gitproxy/);
    expect(check('git fetch -q git://example.invalid/x')).toMatch(/core\.gitproxy/);
    const before = vetEntries(
      [{ origin: `file:${repo}/.git/config`, key: 'core.gitproxy', value: './proxy.sh' }],
      repo,
    );
    expect(before.unvouched.join('\n')).toMatch(/core\.gitproxy/);
    expect(before.settings.map(([key]) => key)).not.toContain('core.gitproxy');
  });

  it('#1, #8: git config with any prefix of --edit, or paged (-p, pager.config), runs no editor or pager of the repository', async () => {
    const { check, repo, mark } = await setUp();
    git(repo, 'config', 'core.editor', `touch ${mark}; true`);
    for (const edit of ['--edi', '--ed', '--edit', '-e']) check(`git config ${edit} </dev/null`);
    git(repo, 'config', '--unset', 'core.editor');
    git(repo, 'config', 'core.pager', `touch ${mark}; cat`);
    // A terminal (script), where git pages.
    check("script -qc 'git -p config --list' /dev/null");
    git(repo, 'config', 'pager.config', 'true');
    check("script -qc 'git config --list' /dev/null");
  });

  it('#2, #3, #12: a template or an include given to clone by a prefix of --template, clone -c/--config or -c init.templateDir is refused', async () => {
    const { check, ws } = await setUp();
    const tpl = path.join(ws.root, 'tpl');
    const cfg = path.join(ws.root, 'drivers.cfg');
    const cases = [
      `git clone -q --templa=${tpl} evil D`,
      `git clone -q --temp ${tpl} evil D`,
      `git init -q --templ=${tpl} D && cd D && git fetch -q ../evil && git checkout -q FETCH_HEAD -- .`,
      `git clone -q -c include.path=${cfg} evil D`,
      `git clone -q -cinclude.path=${cfg} evil D`,
      `git clone -qc include.path=${cfg} evil D`,
      `git clone -q --config=include.path=${cfg} evil D`,
      `git clone -q --conf include.path=${cfg} evil D`,
      `git clone -q -c includeIf.gitdir:/.path=${cfg} evil D`,
      `git -c init.templateDir=${tpl} clone -q evil D`,
      `T=${tpl} git --config-env=init.templateDir=T clone -q evil D`,
      `printf '%s\\n' -c init.templateDir=${tpl} clone -q evil D | xargs git`,
    ];
    for (const command of cases) expect(check(`rm -rf D; ${command}`, ws.root)).toMatch(/template|include/);
    // A clone with neither still runs.
    const plain = spawnSync('bash', ['-c', 'rm -rf D; git clone -q -c x.y=1 --no-checkout evil D'], { cwd: ws.root });
    expect(plain.status).toBe(0);
  });

  it('#5: an include in the repository whose target is not a regular file (stdin, a fd, a FIFO, a link) is refused', async () => {
    const { check, refused, repo, ws, mark, shim } = await setUp();
    const notes = path.join(ws.root, 'notes.txt');
    writeFileSync(notes, drivers(mark));
    // Relative includes are taken from the including file's folder (.git).
    symlinkSync('/dev/stdin', path.join(repo, 'in.cfg'));
    symlinkSync('/dev/stdin', path.join(repo, '.git', 'in.cfg'));
    symlinkSync('/proc/self/fd', path.join(repo, '.git', 'fds'));
    for (const target of [
      '/dev/stdin',
      '/dev/fd/0',
      '/proc/self/fd/0',
      'in.cfg',
      '../in.cfg',
      'fds/0',
      '~/../workspace/evil/in.cfg',
    ]) {
      git(repo, 'config', 'include.path', target);
      expect(check(`git diff < ${notes}`)).toMatch(/not a regular file/);
    }
    git(repo, 'config', '--unset', 'include.path');
    git(repo, 'config', 'includeIf.gitdir:/.path', '/dev/stdin');
    expect(check(`git log -p -1 >/dev/null; git diff < ${notes}`)).toMatch(/not a regular file/);
    git(repo, 'config', '--unset', 'includeIf.gitdir:/.path');
    // Not an include: the repository's config itself, or a user config a child moved, read from stdin.
    expect(check(`GIT_CONFIG_GLOBAL=/dev/stdin git diff < ${notes}`)).toMatch(/from its stdin/);
    const config = path.join(repo, '.git', 'config');
    writeFileSync(notes, `${readFileSync(config, 'utf8')}${drivers(mark)}`);
    rmSync(config);
    symlinkSync('/dev/stdin', config);
    expect(check(`git diff < ${notes}`)).toMatch(/from its stdin/);
    rmSync(config);
    writeFileSync(config, readFileSync(notes, 'utf8').replace(drivers(mark), ''));
    git(repo, 'config', 'includeIf.gitdir:/.path', '/dev/stdin');
    // The listing's own stdin config, changed by a command, makes tole's git written again.
    const stdinConfig = path.join(path.dirname(shim.binDir), 'stdin.cfg');
    expect(shim.intact()).toBe(true);
    chmodSync(stdinConfig, 0o644);
    writeFileSync(stdinConfig, '');
    chmodSync(stdinConfig, 0o444);
    expect(shim.intact()).toBe(false);
    writeFileSync(stdinConfig, '[tole]\n\tstdin = read\n');
    // A FIFO the command feeds. Plain git runs the driver only when each of its two reads of the
    // include meets one writer's copy whole (under load a reader can get two copies in one read), so
    // only tole's side is checked here; the links to /dev/stdin above show the attack under plain git
    // every time. The writer feeds a copy to every read, however many there are: with two copies, a
    // listing whose first read took both waited for good at its second, until the run's time limit
    // (seen once in ten whole runs, with an empty stderr).
    git(repo, 'config', '--unset', 'includeIf.gitdir:/.path');
    git(repo, 'config', 'include.path', 'fifo');
    expect(
      // The writer in a process group of its own, ended after git.
      refused(
        `rm -f .git/fifo; mkfifo .git/fifo; set -m; (while cat ${notes} > .git/fifo; do :; done) & git diff; kill -- -$! 2>/dev/null; true`,
      ),
    ).toMatch(/not a regular file/);
  });

  it("#11: with an empty or relative PATH entry, a repository's own git-remote-<helper> is not found by tole's git", async () => {
    const { check, repo, mark } = await setUp();
    mkdirSync(path.join(repo, 'bin'));
    for (const where of ['git-remote-evil', 'bin/git-remote-evil']) {
      writeFileSync(path.join(repo, where), `#!/bin/sh\ntouch ${mark}\n`);
      chmodSync(path.join(repo, where), 0o755);
    }
    git(repo, 'config', 'remote.origin.url', 'evil::x');
    git(repo, 'config', 'remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*');
    for (const tail of [':', '::/nowhere', ':bin', ':./bin']) check('git fetch -q', repo, tail);
    git(repo, 'config', 'remote.origin.url', 'https://tole-test.invalid/x');
    git(repo, 'config', 'remote.origin.vcs', 'evil');
    check('git fetch -q', repo, ':');
  });

  it("#4: a local push or archive --remote vets the config of the repository git's server program enters, not the cwd's", async () => {
    const { check, ws, mark } = await setUp();
    const at = (...args: string[]) => git(ws.root, ...args);
    at('init', '-q', '--bare', 'alt.git');
    at('init', '-q', '--bare', 'tgt.git');
    writeFileSync(path.join(ws.root, 'tgt.git', 'objects', 'info', 'alternates'), `${ws.root}/alt.git/objects\n`);
    at('-C', 'tgt.git', 'config', 'core.alternateRefsCommand', `sh -c 'touch ${mark}' --`);
    check('git push -q ../tgt.git HEAD:refs/heads/a');
    check(`git push -q file://${ws.root}/tgt.git HEAD:refs/heads/b`);
    // Found as git finds it: tgt for tgt.git.
    check('git push -q ../tgt HEAD:refs/heads/c');
    // archive --remote: upload-archive, then upload-archive--writer, each entering arc.
    at('init', '-q', 'arc');
    writeFileSync(path.join(ws.root, 'arc', 'a'), 'a\n');
    git(path.join(ws.root, 'arc'), 'add', 'a');
    git(path.join(ws.root, 'arc'), 'commit', '-qm', 'a');
    at('-C', 'arc', 'config', 'tar.evil.command', `sh -c 'touch ${mark}; cat'`);
    at('-C', 'arc', 'config', 'tar.evil.remote', 'true');
    check('git archive --remote=../arc --format=evil HEAD >/dev/null');
  });
});
