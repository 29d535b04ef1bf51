/**
 * A workspace that is not itself a git repository may hold one (vendor/x): a command that goes
 * into it runs that repository's config as much as one at the top would. tole looked for nested
 * repositories only from a repository's own git directory, so in such a workspace nothing was
 * read, and `cd vendor/x && git diff` ran vendor/x's textconv through an unconfined bash call.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from './tools/temp-workspace';

/** vendor/x, a repository with a changed file `f` whose diff runs a textconv that leaves a mark. */
async function workspaceHoldingARepository() {
  const ws = await tempWorkspace();
  const nested = path.join(ws.root, 'vendor', 'x');
  mkdirSync(nested, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: nested, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(path.join(nested, 'f'), 'one\n');
  writeFileSync(path.join(nested, '.gitattributes'), 'f diff=evil\n');
  git('add', '-A');
  git('commit', '-qm', 'first');
  writeFileSync(path.join(nested, 'f'), 'two\n');
  const mark = path.join(ws.outside, 'textconv-ran');
  appendFileSync(path.join(nested, '.git', 'config'), `[diff "evil"]\n\ttextconv = "sh -c 'touch ${mark}; cat' --"\n`);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
  const bash = createBashTool({ workspaceRoot: ws.root, env });
  return { ws, nested, mark, bash };
}

describe('a workspace that is no repository', () => {
  it('holds one whose textconv plain git runs', async () => {
    const { ws, mark } = await workspaceHoldingARepository();
    execFileSync('bash', ['-c', 'cd vendor/x && git diff'], { cwd: ws.root, stdio: 'ignore' });
    expect(existsSync(mark)).toBe(true);
  });

  it("has the nested repository's textconv left inert in a command run with a key", async () => {
    const { ws, mark, bash } = await workspaceHoldingARepository();
    const out = await bash.execute({ command: 'cd vendor/x && git diff' }, { ...ws.ctx, keypress: true });
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('+two');
    expect(existsSync(mark)).toBe(false);
  });

  it("refuses to run unconfined what the nested repository's config holds that tole cannot vouch for", async () => {
    const { ws, nested, mark, bash } = await workspaceHoldingARepository();
    appendFileSync(path.join(nested, '.git', 'config'), '[gitflow "path"]\n\thooks = /elsewhere\n');
    const out = await bash.execute({ command: 'cd vendor/x && git diff' }, { ...ws.ctx, keypress: true });
    expect(out.ok).toBe(false);
    expect(out.content).toContain('gitflow.path.hooks (in vendor/x/.git/config)');
    expect(out.content).not.toContain("could not find the repository's git directory");
    expect(existsSync(mark)).toBe(false);
  });

  it('runs a command that names no repository as before', async () => {
    const { ws, bash } = await workspaceHoldingARepository();
    const out = await bash.execute({ command: 'echo hi' }, { ...ws.ctx, keypress: true });
    expect(out.ok, out.content).toBe(true);
  });
});
