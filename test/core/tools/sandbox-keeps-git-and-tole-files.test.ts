/**
 * Inside the writable workspace, a confined command cannot change what runs later outside any
 * sandbox: git's metadata (the next `git status` of the user) and tole's own files (the next
 * start). Each attack is tried as a hostile model would and must leave the repository as it was;
 * a `git commit` fails in words that lead the model to ask for a keypress.
 * Needs a working bwrap; without it these tests skip and say why.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../../src/core/tools/sandbox';
import { protectedPaths } from '../../../src/core/tools/sandbox-protected-paths';
import { treeState } from '../../support/workspace-state';
import { sandboxedBash, tempWorkspace } from './temp-workspace';
import { tempDirForFile } from '../../support/after-the-test';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
if (!sandbox) console.log('skipping the .git protection tests: no working bwrap here (install bubblewrap)');

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/**
 * A repository with a commit, a submodule, a nested clone, tole.config.json and .tole/: made once
 * (a dozen git runs) in `templateRoot`, and copied for each test. Every link inside it is relative
 * (the submodule's .git file and core.worktree), so a copy is a repository of its own.
 */
const templateParent = tempDirForFile('tole-git-template-');
const templateRoot = (): string => path.join(templateParent, 'workspace');

beforeAll(() => {
  if (!sandbox) return;
  const root = templateRoot();
  const sub = path.join(templateParent, 'sub-origin');
  mkdirSync(root);
  mkdirSync(sub);
  git(sub, 'init', '-q');
  git(sub, 'commit', '-q', '--allow-empty', '-m', 'sub');
  git(root, 'init', '-q');
  writeFileSync(path.join(root, 'a.txt'), 'a\n');
  writeFileSync(path.join(root, 'tole.config.json'), '{}\n');
  mkdirSync(path.join(root, '.tole', 'agents'), { recursive: true });
  writeFileSync(path.join(root, '.tole', 'agents', 'helper.json'), '{}\n');
  git(root, 'add', '.');
  git(root, 'commit', '-q', '-m', 'first');
  git(root, 'submodule', '-q', 'add', sub, 'sub');
  git(root, 'commit', '-q', '-m', 'with sub');
  // A repository nested in the workspace that is no submodule (a vendored clone).
  git(templateParent, 'clone', '-q', sub, path.join(root, 'vendor', 'lib'));
});

/** A copy of the template repository; the state every attack must leave alone. */
async function setup() {
  const ws = await tempWorkspace();
  cpSync(templateRoot(), ws.root, { recursive: true, verbatimSymlinks: true });
  const { bash } = sandboxedBash(ws, sandbox!, {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside },
  });
  // Every byte of what runs later outside the sandbox, read in-process: git's metadata (the
  // repository's, the submodule's .git file and git dir, the nested clone's) and tole's files.
  const snapshot = (): string =>
    JSON.stringify(
      ['.git', 'sub/.git', 'vendor/lib/.git', 'tole.config.json', '.tole'].map((rel) => {
        const full = path.join(ws.root, rel);
        if (!existsSync(full)) return [rel, 'missing'];
        return [rel, lstatSync(full).isDirectory() ? treeState(full, []) : readFileSync(full, 'utf8')];
      }),
      null,
      1,
    );
  return { ws, bash, snapshot, before: snapshot() };
}

const ATTACKS: readonly (readonly [string, string])[] = [
  [
    'rename .git and put a new one in its place',
    'mv .git .git-old && git init -q . && git config core.fsmonitor "touch /tmp/x"',
  ],
  ['move .git/config aside', 'mv .git/config .git/config.old'],
  ['write a hook', 'printf "#!/bin/sh\\ntouch owned\\n" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit'],
  ['set core.fsmonitor', 'git config core.fsmonitor "touch owned"'],
  ['set core.hooksPath to the workspace', 'git config core.hooksPath hooks'],
  ['write a submodule config in .git/modules', 'echo "[core] fsmonitor = touch owned" >> .git/modules/sub/config'],
  [
    'point the submodule .git file elsewhere',
    'mkdir -p evil && git init -q evil && echo "gitdir: ../evil/.git" > sub/.git',
  ],
  ['rename the submodule .git file', 'mv sub/.git sub/.git-old'],
  ['set core.fsmonitor in a nested repository', 'git -C vendor/lib config core.fsmonitor "touch owned"'],
  ["rename a nested repository's .git", 'mv vendor/lib/.git vendor/lib/.git-old && git init -q vendor/lib'],
  ['add a worktree', 'git worktree add -q ../wt'],
  ['commit', 'git commit -q --allow-empty -m sneaky'],
  ['write through a symlink to .git/config', 'ln -s .git/config c && echo "[core] fsmonitor = touch owned" >> c'],
  ['replace tole.config.json', 'echo \'{"hooks":{}}\' > tole.config.json'],
  ['rename tole.config.json', 'mv tole.config.json x.json'],
  ['add a profile under .tole', 'echo "{}" > .tole/agents/evil.json'],
  ['rename .tole', 'mv .tole .tole-old && mkdir -p .tole/agents'],
  ['write .git through /proc/self/cwd', 'echo "[core] fsmonitor = touch owned" >> /proc/self/cwd/.git/config'],
  ['write .git through an open descriptor', 'exec 9<.git; echo x > /proc/self/fd/9/config'],
];

describe.skipIf(!sandbox)('git metadata and tole files in the sandbox', () => {
  it.each(ATTACKS)('%s: refused, nothing changed', async (_name, command) => {
    const { ws, bash, snapshot, before } = await setup();
    const out = await bash.execute({ command }, ws.ctx);
    expect(out.ok, out.content).toBe(false);
    expect(snapshot()).toBe(before);
    expect(existsSync(path.join(path.dirname(ws.root), 'wt'))).toBe(false);
  });

  it('a git commit fails in words that lead to asking for a keypress', async () => {
    const { ws, bash } = await setup();
    const out = await bash.execute({ command: 'git commit --allow-empty -m sneaky' }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('Read-only file system');
    expect(out.content).toContain('outside_sandbox');
  });

  it('the workspace itself stays writable, and git reads still work', async () => {
    const { ws, bash } = await setup();
    const out = await bash.execute(
      { command: 'echo b >> a.txt && git status --short && git log --oneline | wc -l' },
      ws.ctx,
    );
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('M a.txt');
  });

  it('a nested repository in a folder named `..vendor`: its config stays read-only', async () => {
    const { ws, bash } = await setup();
    git(templateParent, 'clone', '-q', path.join(templateParent, 'sub-origin'), path.join(ws.root, '..vendor'));
    const config = path.join(ws.root, '..vendor', '.git', 'config');
    const before = readFileSync(config, 'utf8');
    const out = await bash.execute({ command: 'git -C ..vendor config core.fsmonitor "touch owned"' }, ws.ctx);
    expect(out.ok, out.content).toBe(false);
    expect(readFileSync(config, 'utf8')).toBe(before);
  });

  it('a .git file leading to a git dir inside the workspace (--separate-git-dir): both stay read-only', async () => {
    const ws = await tempWorkspace();
    git(ws.root, 'init', '-q', `--separate-git-dir=${path.join(ws.root, 'store')}`);
    git(ws.root, 'commit', '-q', '--allow-empty', '-m', 'm');
    const { bash } = sandboxedBash(ws, sandbox!, {
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside },
    });
    const before = readFileSync(path.join(ws.root, 'store', 'config'), 'utf8');
    for (const command of [
      'git config core.fsmonitor "touch owned"',
      'echo "gitdir: elsewhere" > .git',
      'mv store store-old',
      'mv .git git-old',
    ]) {
      const out = await bash.execute({ command }, ws.ctx);
      expect(out.ok, `${command}: ${out.content}`).toBe(false);
    }
    expect(readFileSync(path.join(ws.root, 'store', 'config'), 'utf8')).toBe(before);
    expect(readFileSync(path.join(ws.root, '.git'), 'utf8')).toMatch(/^gitdir: .*store/);
  });
});

describe('what is kept read-only', () => {
  it("a worktree's .git file, its git dir and the common dir, when inside the workspace", async () => {
    const ws = await tempWorkspace();
    const gitDir = path.join(ws.root, 'gd', 'worktrees', 'x');
    mkdirSync(gitDir, { recursive: true });
    writeFileSync(path.join(ws.root, '.git'), 'gitdir: gd/worktrees/x\n');
    writeFileSync(path.join(gitDir, 'commondir'), '../..\n');
    expect(protectedPaths(ws.root, [ws.root])).toEqual([path.join(ws.root, '.git'), path.join(ws.root, 'gd'), gitDir]);
  });

  it('leaves out what lies outside the writable roots, and what does not exist', async () => {
    const ws = await tempWorkspace();
    writeFileSync(path.join(ws.root, '.git'), `gitdir: ${ws.outside}\n`);
    expect(protectedPaths(ws.root, [ws.root])).toEqual([path.join(ws.root, '.git')]);
  });

  it('a nested repository or submodule in a folder whose name begins with two dots', async () => {
    const ws = await tempWorkspace();
    mkdirSync(path.join(ws.root, '..vendor', '.git'), { recursive: true });
    mkdirSync(path.join(ws.root, '..sub', '.git'), { recursive: true });
    writeFileSync(path.join(ws.root, '.gitmodules'), '[submodule "s"]\n\tpath = ..sub\n');
    expect(protectedPaths(ws.root, [ws.root]).sort()).toEqual(
      [path.join(ws.root, '..sub', '.git'), path.join(ws.root, '..vendor', '.git')].sort(),
    );
  });

  it('is kept only under a writable root, not under a sibling whose name begins with the root', async () => {
    const ws = await tempWorkspace();
    mkdirSync(path.join(ws.root, '.git'));
    expect(protectedPaths(ws.root, [`${ws.root}x`])).toEqual([]);
    expect(protectedPaths(ws.root, [path.join(ws.root, '..')])).toEqual([path.join(ws.root, '.git')]);
  });
});
