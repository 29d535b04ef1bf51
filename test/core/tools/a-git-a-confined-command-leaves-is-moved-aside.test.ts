/**
 * A confined command can make a `.git` (a folder, a `gitdir:` file, a link, a bare repository) in
 * the workspace, or change one the sandbox did not keep read-only, whose config runs a program at
 * the user's next git there, outside any sandbox. After each confined run tole vets what is new or
 * changed (git-left-behind.ts): what names a program is moved aside and said in the result. Each
 * case plants through the real sandbox, then runs the user's own git (no guard) where the command
 * left it: the planted program must not run. A control plants the same by hand with the move off:
 * there the user's git runs it, so the check can fail.
 * Needs a working bwrap; without it the sandboxed cases skip and say why.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitSnapshot, QUARANTINE_SUFFIX, vetGitLeftBehind } from '../../../src/core/git-left-behind';
import { detectSandbox } from '../../../src/core/tools/sandbox';
import { sandboxedBash, tempWorkspace, type TempWorkspace } from './temp-workspace';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
if (!sandbox) console.log('skipping the left-behind .git tests: no working bwrap here (install bubblewrap)');

const PATH = process.env['PATH'] ?? '/usr/bin:/bin';

/** The user's own git: their shell's environment, no tole guard. */
function userGit(ws: TempWorkspace, cwd: string, args: readonly string[]): void {
  spawnSync('git', args, {
    cwd,
    env: { PATH, HOME: ws.outside, GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: path.dirname(ws.root) },
    stdio: 'ignore',
    timeout: 20_000,
  });
}

const marker = (ws: TempWorkspace): string => path.join(ws.outside, 'ran');
const ranPlanted = (ws: TempWorkspace): boolean => existsSync(marker(ws));

/** A case: the command (`@RUN@` stands for the planted program), the entry it leaves, and the user's git that would run it. */
interface Plant {
  readonly name: string;
  readonly command: string;
  /** Entries moved aside (relative to the workspace root). */
  readonly moved: readonly string[];
  /** Where the user's git runs, and with what. */
  readonly userRun: { readonly dir: string; readonly args: readonly string[] } | null;
}

const PLANTS: readonly Plant[] = [
  {
    name: 'a repository made at the root of a workspace that is none, with core.fsmonitor',
    command: 'git init -q . && git config core.fsmonitor "@RUN@"',
    moved: ['.git'],
    userRun: { dir: '.', args: ['status'] },
  },
  {
    name: 'a repository in a new nested folder, with an alias',
    command: 'mkdir -p a/b/c/d/e && git init -q a/b/c/d/e && git -C a/b/c/d/e config alias.st "!@RUN@"',
    moved: ['a/b/c/d/e/.git'],
    userRun: { dir: 'a/b/c/d/e', args: ['st'] },
  },
  {
    name: 'a .git file pointing at a git directory the command made',
    command: 'git init -q --separate-git-dir store w && git -C w config core.fsmonitor "@RUN@"',
    moved: ['w/.git', 'store'],
    userRun: { dir: 'w', args: ['status'] },
  },
  {
    name: 'a .git file naming a relative git directory',
    command:
      'git init -q x && mv x/.git gd && echo "gitdir: ../gd" > x/.git && git --git-dir=gd config core.fsmonitor "@RUN@"',
    moved: ['x/.git', 'gd'],
    userRun: { dir: 'x', args: ['status'] },
  },
  {
    name: '.git as a link to a folder',
    command:
      'git init -q real && mv real/.git gd && ln -s ../gd real/.git && git -C real config core.fsmonitor "@RUN@"',
    moved: ['real/.git', 'gd'],
    userRun: { dir: 'real', args: ['status'] },
  },
  {
    name: 'include.path to another file',
    command:
      'git init -q inc && printf "[core]\\n\\tfsmonitor = @RUN@\\n" > extra && git -C inc config include.path ../../extra',
    moved: ['inc/.git'],
    userRun: { dir: 'inc', args: ['status'] },
  },
  {
    name: 'includeIf.gitdir to another file',
    command:
      'git init -q incif && printf "[core]\\n\\tfsmonitor = @RUN@\\n" > extra && git -C incif config "includeIf.gitdir:/.path" ../../extra',
    moved: ['incif/.git'],
    userRun: { dir: 'incif', args: ['status'] },
  },
  {
    name: "a worktree's config.worktree",
    command:
      'git init -q wtc && git -C wtc config extensions.worktreeConfig true && printf "[core]\\n\\tfsmonitor = @RUN@\\n" > wtc/.git/config.worktree',
    moved: ['wtc/.git'],
    userRun: { dir: 'wtc', args: ['status'] },
  },
  {
    name: 'a bare repository in a sub-folder',
    command: 'git init -q --bare b.git && git --git-dir=b.git config alias.l "!@RUN@"',
    moved: ['b.git'],
    userRun: { dir: 'b.git', args: ['l'] },
  },
  {
    name: 'a git directory made through GIT_DIR',
    command: 'GIT_DIR=gd git init -q && git --git-dir=gd config alias.l "!@RUN@"',
    moved: ['gd'],
    userRun: { dir: 'gd', args: ['l'] },
  },
  {
    name: 'a hook in a new repository',
    command:
      'git init -q h && printf "#!/bin/sh\\n@RUN@\\n" > h/.git/hooks/pre-commit && chmod +x h/.git/hooks/pre-commit',
    moved: ['h/.git'],
    userRun: {
      dir: 'h',
      args: ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'x'],
    },
  },
  {
    name: 'core.hooksPath to a folder of the workspace',
    command:
      'git init -q hp && mkdir hooks && printf "#!/bin/sh\\n@RUN@\\n" > hooks/pre-commit && chmod +x hooks/pre-commit && git -C hp config core.hooksPath ../hooks',
    moved: ['hp/.git'],
    userRun: {
      dir: 'hp',
      args: ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'x'],
    },
  },
  {
    name: 'a config that is a FIFO',
    command: 'git init -q ff && rm ff/.git/config && mkfifo ff/.git/config',
    moved: ['ff/.git'],
    userRun: null,
  },
  {
    name: 'a .git file naming a folder of the private /tmp, gone after the run',
    command: 'mkdir -p o && git init -q --bare /tmp/evil && echo "gitdir: /tmp/evil" > o/.git',
    moved: ['o/.git'],
    userRun: null,
  },
];

const planted = (command: string, ws: TempWorkspace): string => command.replaceAll('@RUN@', `touch ${marker(ws)}`);

async function confinedRun(command: string) {
  const ws = await tempWorkspace();
  const { bash } = sandboxedBash(ws, sandbox!, { env: { PATH, HOME: ws.outside } });
  const out = await bash.execute({ command: planted(command, ws) }, ws.ctx);
  return { ws, out };
}

describe.skipIf(!sandbox)('a .git a confined command leaves', () => {
  it.each(PLANTS)('$name: moved aside and told; the user’s git runs nothing', async (plant) => {
    const { ws, out } = await confinedRun(plant.command);
    expect(out.ok, out.content).toBe(false);
    expect(out.content).toContain('left git settings that would run a program');
    for (const entry of plant.moved) {
      const moved =
        path.basename(entry) === '.git' ? `${entry}${QUARANTINE_SUFFIX}` : `${entry}/HEAD${QUARANTINE_SUFFIX}`;
      expect(existsSync(path.join(ws.root, moved)) || isLink(path.join(ws.root, moved)), moved).toBe(true);
      expect(out.content).toContain(entry);
    }
    if (plant.userRun) userGit(ws, path.join(ws.root, plant.userRun.dir), plant.userRun.args);
    expect(ranPlanted(ws)).toBe(false);
  });

  it('a .git file pointing at a repository outside the workspace is moved aside', async () => {
    const ws = await tempWorkspace();
    execFileSync('git', ['init', '-q', path.join(ws.outside, 'theirs')]);
    const { bash } = sandboxedBash(ws, sandbox!, { env: { PATH, HOME: ws.outside } });
    const gitDir = path.join(ws.outside, 'theirs', '.git');
    const out = await bash.execute({ command: `mkdir p && echo "gitdir: ${gitDir}" > p/.git` }, ws.ctx);
    expect(out.content).toContain('outside the workspace');
    expect(existsSync(path.join(ws.root, 'p', `.git${QUARANTINE_SUFFIX}`))).toBe(true);
    // The outside repository itself is left as it was.
    expect(existsSync(path.join(gitDir, 'HEAD'))).toBe(true);
  });

  it('a nested repository below the depth the sandbox keeps read-only: a changed config is moved aside', async () => {
    const ws = await tempWorkspace();
    const deep = path.join(ws.root, 'a', 'b', 'c', 'd', 'e', 'f');
    mkdirSync(deep, { recursive: true });
    execFileSync('git', ['init', '-q', deep]);
    const { bash } = sandboxedBash(ws, sandbox!, { env: { PATH, HOME: ws.outside } });
    const out = await bash.execute(
      { command: planted('git -C a/b/c/d/e/f config core.fsmonitor "@RUN@"', ws) },
      ws.ctx,
    );
    expect(out.content).toContain('core.fsmonitor');
    expect(existsSync(path.join(deep, `.git${QUARANTINE_SUFFIX}`))).toBe(true);
    userGit(ws, deep, ['status']);
    expect(ranPlanted(ws)).toBe(false);
  });

  it('a background process the command left cannot write a config after the check: it ended with the sandbox', async () => {
    const ws = await tempWorkspace();
    mkdirSync(path.join(ws.root, 'late'));
    const { bash } = sandboxedBash(ws, sandbox!, { env: { PATH, HOME: ws.outside } });
    // It waits in the workspace for a file that only the test could make; the check runs after bash exits.
    const command = planted(
      '(cd late && while [ ! -e go ]; do sleep 0.05; done; git init -q . && git config core.fsmonitor "@RUN@") >/dev/null 2>&1 &',
      ws,
    );
    const out = await bash.execute({ command }, ws.ctx);
    expect(out.content).not.toContain('left git settings');
    // No process is left in the workspace: its pid namespace ended with the sandbox.
    expect(processesIn(ws.root)).toEqual([]);
    writeFileSync(path.join(ws.root, 'late', 'go'), '');
    expect(existsSync(path.join(ws.root, 'late', '.git'))).toBe(false);
  });

  it('a background process that writes the moment bash exits: caught by the check or never written', async () => {
    const ws = await tempWorkspace();
    const { bash } = sandboxedBash(ws, sandbox!, { env: { PATH, HOME: ws.outside } });
    const command = planted(
      '(while kill -0 $$ 2>/dev/null; do :; done; git init -q late && git -C late config core.fsmonitor "@RUN@") >/dev/null 2>&1 &',
      ws,
    );
    await bash.execute({ command }, ws.ctx);
    expect(processesIn(ws.root)).toEqual([]);
    // Killed between its git init and its git config, it leaves a plain repository: no program in it.
    const config = path.join(ws.root, 'late', '.git', 'config');
    if (existsSync(config)) expect(readFileSync(config, 'utf8')).not.toContain('fsmonitor');
    if (existsSync(path.join(ws.root, 'late'))) userGit(ws, path.join(ws.root, 'late'), ['status']);
    expect(ranPlanted(ws)).toBe(false);
  });

  it('a repository made with settings that run nothing is left where it is, and nothing is said', async () => {
    const ws = await tempWorkspace();
    const { bash } = sandboxedBash(ws, sandbox!, { env: { PATH, HOME: ws.outside } });
    const command =
      'git init -q clean && git -C clean config user.name x && git -C clean remote add origin https://example.invalid/x && git init -q --bare clean.git';
    const out = await bash.execute({ command }, ws.ctx);
    expect(out.ok, out.content).toBe(true);
    expect(out.content).not.toContain('tole:');
    expect(existsSync(path.join(ws.root, 'clean', '.git', 'config'))).toBe(true);
    expect(existsSync(path.join(ws.root, 'clean.git', 'HEAD'))).toBe(true);
  });

  it("a repository's hostile config that was there before the run is not the command's: left alone", async () => {
    const ws = await tempWorkspace();
    execFileSync('git', ['init', '-q', path.join(ws.root, 'mine')]);
    execFileSync('git', ['-C', path.join(ws.root, 'mine'), 'config', 'alias.x', '!echo mine']);
    const { bash } = sandboxedBash(ws, sandbox!, { env: { PATH, HOME: ws.outside } });
    const out = await bash.execute({ command: 'echo hi > file' }, ws.ctx);
    expect(out.ok, out.content).toBe(true);
    expect(existsSync(path.join(ws.root, 'mine', '.git', 'config'))).toBe(true);
  });
});

describe('the vet, without the sandbox', () => {
  it('control: with the move off, the user’s git runs what was planted, and the vet names it', async () => {
    const ws = await tempWorkspace();
    const before = gitSnapshot(ws.root);
    execFileSync('git', ['init', '-q', path.join(ws.root, 'sub')]);
    execFileSync('git', ['-C', path.join(ws.root, 'sub'), 'config', 'core.fsmonitor', `touch ${marker(ws)}`]);
    const report = await vetGitLeftBehind(ws.root, before, PATH, false);
    expect(report.left.map((item) => [path.relative(ws.root, item.entry), item.movedTo])).toEqual([['sub/.git', null]]);
    expect(report.left[0]!.found.join('\n')).toContain('core.fsmonitor');
    userGit(ws, path.join(ws.root, 'sub'), ['status']);
    expect(ranPlanted(ws)).toBe(true);
  });

  it('past the bound of folders it says it did not look everywhere', async () => {
    const ws = await tempWorkspace();
    for (const name of ['a', 'b', 'c']) mkdirSync(path.join(ws.root, name));
    const before = gitSnapshot(ws.root, 2);
    const report = await vetGitLeftBehind(ws.root, before, PATH, true, 2);
    expect(report.incomplete).toBe(true);
  });
});

function isLink(file: string): boolean {
  try {
    readlinkSync(file);
    return true;
  } catch {
    return false;
  }
}

/** The pids of this user's processes whose working directory lies in `dir`. */
function processesIn(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(pid);
    } catch {}
  }
  return found;
}
