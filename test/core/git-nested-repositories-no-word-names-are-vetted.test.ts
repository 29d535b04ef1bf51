/**
 * A nested repository no word of the command names is still reached: `cd "$(cat where)"`, a
 * script, `find -execdir`, `xargs`, a here-doc, a symlink out of the workspace, a folder the outer
 * repository ignores, a workspace that is no repository at all. tole walks the whole workspace for
 * git directories before each command and vets every one it finds; a workspace too large to walk
 * is one it cannot vouch for.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceGitDirs } from '../../src/core/git-nested-dirs';
import { tempWorkspace } from './tools/temp-workspace';
import { markingTextconv, markRunners } from '../support/textconv-mark';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** A workspace (a repository unless `bare` says not) and a way to plant hostile repositories in it. */
async function workspace(options: { outerRepository: boolean }) {
  const ws = await tempWorkspace();
  if (options.outerRepository) {
    git(ws.root, 'init', '-q');
    writeFileSync(path.join(ws.root, '.gitignore'), 'ignored/\n');
    git(ws.root, 'add', '-A');
    git(ws.root, 'commit', '-qm', 'first');
  }
  const mark = path.join(ws.outside, 'ran');
  /** A repository at `dir` whose textconv leaves the mark, with f.evil changed since its commit. */
  const hostileAt = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
    writeFileSync(path.join(dir, 'f.evil'), 'one\n');
    writeFileSync(path.join(dir, '.gitattributes'), '*.evil diff=evil\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'first');
    appendFileSync(path.join(dir, '.git', 'config'), markingTextconv(mark));
    appendFileSync(path.join(dir, 'f.evil'), 'two\n');
  };
  const { plainRuns, toleRuns } = markRunners(ws, mark);
  return { ws, hostileAt, plainRuns, toleRuns };
}

/** Each command reaches vendor/x or ignored/deep/y without a word naming either. */
const UNNAMED = [
  'cd "$(cat where)" && git diff',
  'pushd "$(cat where)" > /dev/null && git diff',
  "find . -name '*.evil' -execdir git diff \\;",
  'd=vend; git -C "${d}or/x" diff',
  'sh script.sh',
  'cat where | xargs -I@ git -C @ diff',
  'cd "$(cat where)" && bash <<EOF\ngit diff\nEOF',
  "bash -c $'cd \\x69gnored/deep/y && git diff'",
];

describe('nested repositories no word of the command names', () => {
  it('plain bash reaches them and runs the textconv; through tole the command runs and none does', async () => {
    const { ws, hostileAt, plainRuns, toleRuns } = await workspace({ outerRepository: true });
    hostileAt(path.join(ws.root, 'vendor', 'x'));
    hostileAt(path.join(ws.root, 'ignored', 'deep', 'y'));
    writeFileSync(path.join(ws.root, 'where'), 'vendor/x\n');
    writeFileSync(path.join(ws.root, 'script.sh'), 'cd ignored/deep/y && git diff\n');
    for (const command of UNNAMED) {
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(out.ok, `${command}: ${out.content}`).toBe(true);
      expect(out.content, command).toContain('+two');
      expect(ran, command).toBe(false);
    }
  });

  it('in a workspace that is no repository, through a .git symlink, and through a symlink out of the workspace', async () => {
    const { ws, hostileAt, plainRuns, toleRuns } = await workspace({ outerRepository: false });
    hostileAt(path.join(ws.root, 'sub', 'x'));
    const linked = path.join(ws.root, 'linked');
    hostileAt(linked);
    mkdirSync(path.join(ws.root, 'stash'));
    renameSync(path.join(linked, '.git'), path.join(ws.root, 'stash', 'gitdir'));
    symlinkSync('../stash/gitdir', path.join(linked, '.git'));
    hostileAt(path.join(ws.outside, 'far', 'z'));
    symlinkSync(path.join(ws.outside, 'far'), path.join(ws.root, 'ext'));
    writeFileSync(path.join(ws.root, 'a.sh'), 'cd sub/x && git diff\n');
    writeFileSync(path.join(ws.root, 'b.sh'), 'cd linked && git diff\n');
    writeFileSync(path.join(ws.root, 'c.sh'), 'cd "$(readlink ext)/z" && git diff\n');
    for (const command of ['sh a.sh', 'sh b.sh', 'sh c.sh']) {
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(out.ok, `${command}: ${out.content}`).toBe(true);
      expect(ran, command).toBe(false);
    }
  });

  it('one among more than 200 folders a glob matches', async () => {
    const { ws, hostileAt, plainRuns, toleRuns } = await workspace({ outerRepository: true });
    for (let i = 0; i < 240; i++) mkdirSync(path.join(ws.root, `d${String(i).padStart(3, '0')}`));
    hostileAt(path.join(ws.root, 'd239', 'x'));
    const command = 'for d in d*/*; do git -C "$d" diff; done';
    expect(plainRuns(command)).toBe(true);
    const { ran, out } = await toleRuns(command);
    expect(out.ok, out.content).toBe(true);
    expect(ran).toBe(false);
  });

  it('a repository whose key tole does not know keeps every command from running unconfined, named or not', async () => {
    const { ws, toleRuns } = await workspace({ outerRepository: true });
    const dir = path.join(ws.root, 'ignored', 'q');
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
    git(dir, 'config', 'some.unknown', 'x');
    const { out } = await toleRuns('sh -c "true"');
    expect(out.ok).toBe(false);
    expect(out.content).toContain('some.unknown (in ignored/q/.git/config)');
  });

  it('a workspace of many repositories has every one read, and past the bound is refused unconfined, saying so', async () => {
    const { ws, toleRuns } = await workspace({ outerRepository: true });
    const repositories = (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const gitDir = path.join(ws.root, 'many', `r${i}`, '.git');
        mkdirSync(gitDir, { recursive: true });
        writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
        writeFileSync(path.join(gitDir, 'config'), '[core]\n\tbare = false\n');
      }
    };
    // More than one git reads at once (a cache of test repositories, a folder of clones): all are read.
    repositories(0, 130);
    expect((await toleRuns('true')).out.ok).toBe(true);
    const config = path.join(ws.root, 'many', 'r129', '.git', 'config');
    writeFileSync(config, '[core]\n\tbare = false\n[some]\n\tunknown = x\n');
    expect((await toleRuns('true')).out.content).toContain('some.unknown (in many/r129/.git/config)');
    writeFileSync(config, '[core]\n\tbare = false\n');
    repositories(130, 1025);
    const { out } = await toleRuns('true');
    expect(out.ok).toBe(false);
    expect(out.content).toContain('more than 1024 config files to read');
  });

  it('past the bound of folders walked, the workspace is unvouched, not clean', async () => {
    const { ws } = await workspace({ outerRepository: false });
    for (const name of ['a', 'b', 'c', 'd']) mkdirSync(path.join(ws.root, name));
    expect(workspaceGitDirs(ws.root, 10).unvouched).toEqual([]);
    expect(workspaceGitDirs(ws.root, 3).unvouched.join()).toContain('the workspace holds more than 3 folders');
  });
});
