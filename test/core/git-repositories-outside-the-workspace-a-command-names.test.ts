/**
 * A command can run git in a repository outside the workspace (`cd /tmp/other && git log -p`,
 * `git -C ~/x diff`): tole reads and vets the config of every repository such a word names, from
 * the folder it names up to `/`, as it does the workspace's own. A path built at run time is not
 * seen (the README says so).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempWorkspace } from './tools/temp-workspace';
import { markingTextconv, markRunners } from '../support/textconv-mark';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** A workspace, and beside it (in HOME) a repository `other` whose textconv leaves a mark, f.evil changed. */
async function besideAHostileRepository() {
  const ws = await tempWorkspace();
  git(ws.root, 'init', '-q');
  const other = path.join(ws.outside, 'other');
  mkdirSync(path.join(other, 'sub'), { recursive: true });
  git(other, 'init', '-q');
  writeFileSync(path.join(other, 'f.evil'), 'one\n');
  writeFileSync(path.join(other, 'sub', 'g.evil'), 'one\n');
  writeFileSync(path.join(other, '.gitattributes'), '*.evil diff=evil\n');
  git(other, 'add', '-A');
  git(other, 'commit', '-qm', 'first');
  const mark = path.join(ws.outside, 'ran');
  appendFileSync(path.join(other, '.git', 'config'), markingTextconv(mark));
  appendFileSync(path.join(other, 'f.evil'), 'two\n');
  appendFileSync(path.join(other, 'sub', 'g.evil'), 'two\n');
  const { plainRuns, toleRuns } = markRunners(ws, mark);
  return { ws, other, plainRuns, toleRuns };
}

describe('a repository outside the workspace that the command names', () => {
  it('plain bash runs its textconv; through tole the command runs and the textconv does not', async () => {
    const { ws, other, plainRuns, toleRuns } = await besideAHostileRepository();
    const commands = [
      `cd ${other} && git log -p -1 && git diff`,
      'git -C ~/other diff',
      'cd "$HOME/other" && git diff',
      'cd ${HOME}/other/sub && git diff',
      'cd ../outside/other && git diff',
      `cd ${ws.outside} && git -C other diff`,
      `git --git-dir=${other}/.git --work-tree=${other} diff`,
      '(cd ~/other; git diff)',
      `pushd ${other}/sub > /dev/null; git diff`,
    ];
    for (const command of commands) {
      expect(plainRuns(command), command).toBe(true);
      const { ran, out } = await toleRuns(command);
      expect(out.ok, `${command}: ${out.content}`).toBe(true);
      expect(ran, command).toBe(false);
    }
  });

  it('a key tole does not know there keeps the command from running unconfined, naming the file', async () => {
    const { other, toleRuns } = await besideAHostileRepository();
    git(other, 'config', 'some.unknown', 'x');
    const { out } = await toleRuns('git -C ~/other status');
    expect(out.ok).toBe(false);
    expect(out.content).toContain(`some.unknown (in ${path.join(other, '.git', 'config')})`);
  });
});
