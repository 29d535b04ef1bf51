/**
 * A remote's vcs and a diff or merge tool are names git makes into a file it runs: `git-remote-<vcs>`
 * and `<git's mergetools folder>/<tool>` (sourced as shell). A value with a slash walks out of
 * there into the repository, so these keys pass only as plain names; with a slash they keep the
 * command from running unconfined.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { vetEntries } from '../../src/core/git-repo-drivers';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from './tools/temp-workspace';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/**
 * A repository whose config names its own files as a remote helper and a difftool, each leaving a
 * mark outside the workspace when run, and a changed file for the difftool to show.
 */
async function hostileRepository() {
  const ws = await tempWorkspace();
  const mark = (name: string) => path.join(ws.outside, name);
  git(ws.root, 'init', '-q');
  writeFileSync(path.join(ws.root, 'f'), 'one\n');
  git(ws.root, 'add', '-A');
  git(ws.root, 'commit', '-qm', 'first');
  writeFileSync(path.join(ws.root, 'f'), 'two\n');
  mkdirSync(path.join(ws.root, 'git-remote-x'));
  writeFileSync(path.join(ws.root, 'helper'), `#!/bin/sh\ntouch ${mark('helper')}\n`);
  chmodSync(path.join(ws.root, 'helper'), 0o755);
  writeFileSync(path.join(ws.root, 'tool.sh'), `touch ${mark('tool')}\n`);
  git(ws.root, 'config', 'remote.origin.url', 'https://example.com/r.git');
  git(ws.root, 'config', 'remote.origin.vcs', 'x/../helper');
  git(ws.root, 'config', 'diff.tool', `${'../'.repeat(30)}${path.join(ws.root, 'tool.sh').slice(1)}`);
  const marked = () => ['helper', 'tool'].filter((name) => existsSync(mark(name)));
  return { ws, marked };
}

const USE = 'git fetch -q origin; git difftool -y; true';

describe('tool and helper names in a repository config', () => {
  it('the repository is hostile to plain git', async () => {
    const { ws, marked } = await hostileRepository();
    execFileSync('bash', ['-c', USE], { cwd: ws.root, stdio: 'ignore' });
    expect(marked()).toEqual(['helper', 'tool']);
  });

  it('through the bash tool: the command is refused unconfined, naming both keys, and nothing runs', async () => {
    const { ws, marked } = await hostileRepository();
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
    const bash = createBashTool({ workspaceRoot: ws.root, env });
    const out = await bash.execute({ command: USE }, { ...ws.ctx, keypress: true });
    expect(out.ok).toBe(false);
    expect(out.content).toContain('remote.origin.vcs (in .git/config)');
    expect(out.content).toContain('diff.tool (in .git/config)');
    expect(marked()).toEqual([]);
  });

  it('plain names pass; a slash in any of them is unvouched', () => {
    const keys = ['remote.origin.vcs', 'diff.tool', 'diff.guitool', 'merge.tool', 'merge.guitool'];
    const vet = (value: string) => vetEntries(keys.map((key) => ({ origin: 'c', key, value })));
    expect(vet('meld')).toEqual({ settings: [], unvouched: [] });
    expect(vet('../x').unvouched).toEqual(keys.map((key) => `${key} (in c)`));
    expect(vet('/usr/bin/x').unvouched).toHaveLength(keys.length);
  });
});
