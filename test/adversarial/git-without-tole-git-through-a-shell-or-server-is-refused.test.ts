/**
 * tole runs a command unconfined with its own git (git-shim-script.ts) first on PATH. Some
 * commands still reach another git: a login shell (or a sourced /etc/profile) sets PATH again
 * without tole's folder, a tmux server started outside tole runs the command in its own
 * environment, and a command can look up tole's git and remove it before its own git runs. Each
 * runs a made repository's textconv when run the way tole runs a command (its git first on PATH,
 * its guard set) — the danger is real — and each is refused through the bash tool with a key,
 * saying what to do, with nothing run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withGitGuard } from '../../src/core/git-guard-env';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { installGitShim, onPath, pathWithShim } from '../../src/core/tools/git-shim';
import { tempDirForTest } from '../support/after-the-test';
import { changedRepository, git } from '../support/changed-repository';
import { tempWorkspace } from '../core/tools/temp-workspace';

/**
 * A workspace holding only evil.tgz: repository `evil` (f.x committed, then changed; `*.x
 * diff=evil`) whose config defines the textconv, which leaves `mark`.
 */
async function archivedTextconv() {
  const ws = await tempWorkspace();
  const mark = path.join(tempDirForTest('tole-elsewhere-mark-'), 'ran');
  const build = tempDirForTest('tole-elsewhere-build-');
  const repo = changedRepository(build, 'diff=evil');
  appendFileSync(
    path.join(repo, '.git', 'config'),
    `[diff "evil"]\n\ttextconv = "sh -c 'touch ${mark}; cat \\"$0\\"'"\n`,
  );
  git(ws.root, 'init', '-q');
  execFileSync('tar', ['czf', path.join(ws.root, 'evil.tgz'), '-C', build, 'evil']);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
  const clean = () => {
    for (const name of readdirSync(ws.root))
      if (!['.git', 'evil.tgz'].includes(name)) rmSync(path.join(ws.root, name), { recursive: true, force: true });
    rmSync(mark, { force: true });
  };
  const bash = createBashTool({ workspaceRoot: ws.root, env });
  return {
    ws,
    mark,
    /** Whether `command` leaves the mark run as tole runs it unconfined: a fresh tole git first on PATH, the guard set. */
    async shimmedRuns(command: string): Promise<boolean> {
      clean();
      const shim = await installGitShim(ws.root, env, []);
      if (shim === null) throw new Error('no git');
      spawnSync('bash', ['-c', command], {
        cwd: ws.root,
        env: withGitGuard({ ...env, PATH: pathWithShim(shim, env) }),
        stdio: 'ignore',
        timeout: 20_000,
      });
      const ran = existsSync(mark);
      rmSync(mark, { force: true });
      return ran;
    },
    async toleRuns(command: string) {
      clean();
      const out = await bash.execute({ command }, { ...ws.ctx, keypress: true });
      return { ran: existsSync(mark), out };
    },
  };
}

/** Refused unconfined with no sandbox here: the words say what, and what to do. */
function expectRefused(out: { ok: boolean; content: string }, command: string, what: string): void {
  expect(out.ok, `${command}: ${out.content}`).toBe(false);
  expect(out.content, command).toContain('it is refused: there is no sandbox here');
  expect(out.content, command).toContain('Write the command without that');
  expect(out.content, command).toContain(what);
}

describe("a git reached without tole's git is refused", () => {
  it('tole’s git alone keeps the textconv from running', async () => {
    const { shimmedRuns, toleRuns } = await archivedTextconv();
    expect(await shimmedRuns('tar xzf evil.tgz && cd evil && git diff')).toBe(false);
    const { ran, out } = await toleRuns('tar xzf evil.tgz && cd evil && git diff');
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('+two');
    expect(ran).toBe(false);
  });

  it('a login shell or a sourced /etc/profile sets PATH without tole’s git', async () => {
    const { ws, shimmedRuns, toleRuns } = await archivedTextconv();
    const searchPath = process.env['PATH'] ?? '/usr/bin:/bin';
    const probe = spawnSync(onPath('bash', searchPath) ?? '/bin/bash', ['-lc', 'printf %s "$PATH"'], {
      env: { PATH: `/tole-first:${searchPath}`, HOME: ws.outside },
    });
    // Where /etc/profile sets no PATH the login shell keeps tole's first; the refusal is checked all the same.
    const profileSetsPath = probe.status === 0 && !probe.stdout.toString().startsWith('/tole-first:');
    const unpack = 'tar xzf evil.tgz && cd evil && ';
    const commands = [
      "tar xzf evil.tgz && bash -lc 'cd evil && git diff'",
      `${unpack}sh -lc 'git diff'`,
      `${unpack}bash -l -c 'git diff'`,
      `${unpack}bash --login -c 'git diff'`,
      `${unpack}. /etc/profile; git diff`,
      `${unpack}source /etc/profile && git diff`,
    ];
    for (const command of commands) {
      if (profileSetsPath) expect(await shimmedRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expectRefused(out, command, 'startup file');
      expect(ran, command).toBe(false);
    }
  });

  it('a command that removes or replaces tole’s git before its own git runs', async () => {
    const { shimmedRuns, toleRuns } = await archivedTextconv();
    const unpack = 'tar xzf evil.tgz && cd evil && ';
    const commands = [
      `${unpack}rm -f $(command -v git) && git diff`,
      `${unpack}rm -rf "$(dirname "$(command -v git)")" && git diff`,
      `${unpack}g=$(command -v git) && r=$(type -ap git | sed -n 2p) && rm -f $g && cp $r $g && git diff`,
    ];
    for (const command of commands) {
      expect(await shimmedRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expectRefused(out, command, 'looks up where git is');
      expect(ran, command).toBe(false);
    }
  });

  it.skipIf(onPath('tmux', process.env['PATH'] ?? '') === null)(
    'a tmux server started outside tole runs the command with its own PATH and no guard',
    async () => {
      const { ws, shimmedRuns, toleRuns } = await archivedTextconv();
      const socket = path.join(tempDirForTest('tole-elsewhere-tmux-'), 's');
      // The user's server, started from a shell without tole: its environment has neither tole's git nor its guard.
      execFileSync('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'base', 'sleep 600'], {
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside },
      });
      try {
        const inner = `cd $PWD/evil && git diff`;
        for (const [tail, what] of [
          [`tmux -S ${socket} run-shell "${inner}"`, 'runs tmux, which runs commands in an environment of its own'],
          [`t=tmux; $t -S ${socket} run-shell "${inner}"`, 'where it names tmux'],
          [
            `python3 -c "import os, subprocess; subprocess.run(['tmux', '-S', '${socket}', 'run-shell', 'cd ' + os.getcwd() + '/evil && git diff'])"`,
            'runs python3 code that starts',
          ],
        ] as const) {
          const command = `tar xzf evil.tgz && ${tail}`;
          expect(await shimmedRuns(command), command).toBe(true);
          const { ran, out } = await toleRuns(command);
          expectRefused(out, command, what);
          expect(ran, command).toBe(false);
        }
      } finally {
        spawnSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' });
      }
    },
  );
});
