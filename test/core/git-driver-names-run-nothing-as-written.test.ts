/**
 * A driver's name is the repository's own text, and git keeps its case: the neutral setting
 * must name the same driver (`diff.Evil.textconv`, not `diff.evil.textconv`) and must not hand
 * the name to the shell where `$(…)` runs. A merge driver's stand-in must merge, not report a
 * clean merge that keeps one side only.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalKey, neutralSettings } from '../../src/core/git-repo-drivers';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from './tools/temp-workspace';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** A repository with one committed file `f.txt` whose attributes are `attributes`. */
async function repository(attributes: string, text = 'one\n') {
  const ws = await tempWorkspace();
  git(ws.root, 'init', '-q');
  writeFileSync(path.join(ws.root, '.gitattributes'), `${attributes}\n`);
  writeFileSync(path.join(ws.root, 'f.txt'), text);
  git(ws.root, 'add', '-A');
  git(ws.root, 'commit', '-qm', 'first');
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside };
  const bash = createBashTool({ workspaceRoot: ws.root, env });
  const run = (command: string) => bash.execute({ command }, { ...ws.ctx, keypress: true });
  const config = (lines: string[]) => appendFileSync(path.join(ws.root, '.git', 'config'), `${lines.join('\n')}\n`);
  return { ws, run, config, mark: (name: string) => path.join(ws.outside, name) };
}

describe("a repository's driver names", () => {
  it('a name with capitals is made inert under that name: no textconv, filter or diff command runs', async () => {
    const { ws, run, config, mark } = await repository('*.txt diff=Evil filter=Evil\n*.cmd diff=Cmd');
    config([
      '[diff "Evil"]',
      `\ttextconv = "sh -c 'touch ${mark('textconv')}; cat \\"$0\\"'"`,
      '[filter "Evil"]',
      `\tclean = "sh -c 'touch ${mark('clean')}; cat'"`,
      '[diff "Cmd"]',
      `\tcommand = "sh -c 'touch ${mark('command')}'"`,
    ]);
    appendFileSync(path.join(ws.root, 'f.txt'), 'two\n');
    writeFileSync(path.join(ws.root, 'g.cmd'), 'one\n');
    const out = await run('git status --short; git add g.cmd; git diff; git diff --cached');
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('+two');
    expect(out.content).toContain("this repository's diff driver Cmd was not run");
    expect(['textconv', 'clean', 'command'].map(mark).filter((m) => existsSync(m))).toEqual([]);
  });

  it('a name that is shell code is not run by the inert value', async () => {
    const { ws, run, config, mark } = await repository('');
    writeFileSync(path.join(ws.root, '.gitattributes'), `*.txt diff=$(touch\${IFS}${mark('name')})\n`);
    config([`[diff "$(touch\${IFS}${mark('name')})"]`, `\tcommand = "touch ${mark('command')}"`]);
    appendFileSync(path.join(ws.root, 'f.txt'), 'two\n');
    const out = await run('git diff');
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain('was not run');
    expect(['name', 'command'].map(mark).filter((m) => existsSync(m))).toEqual([]);
  });

  it("a merge driver's stand-in merges the file as text: both sides' changes are kept", async () => {
    const { ws, run, config, mark } = await repository('*.txt merge=evil', '1\n2\n3\n');
    config(['[merge "evil"]', `\tdriver = "touch ${mark('driver')}"`]);
    git(ws.root, 'checkout', '-qb', 'theirs');
    writeFileSync(path.join(ws.root, 'f.txt'), '1\n2\nTHEIRS\n');
    git(ws.root, 'commit', '-qam', 'theirs');
    git(ws.root, 'checkout', '-q', '-');
    writeFileSync(path.join(ws.root, 'f.txt'), 'OURS\n2\n3\n');
    git(ws.root, 'commit', '-qam', 'ours');
    const out = await run("git -c user.email=t@t -c user.name=t merge -q theirs -m 'merged'");
    expect(out.ok, out.content).toBe(true);
    expect(out.content).toContain("this repository's merge driver evil was not run; git merged the file as text");
    expect(readFileSync(path.join(ws.root, 'f.txt'), 'utf8')).toBe('OURS\n2\nTHEIRS\n');
    expect(existsSync(mark('driver'))).toBe(false);
  });

  it('a merge that conflicts is told as a conflict, not as merged', async () => {
    const { ws, run, config, mark } = await repository('*.txt merge=evil', '1\n');
    config(['[merge "evil"]', `\tdriver = "touch ${mark('driver')}"`]);
    git(ws.root, 'checkout', '-qb', 'theirs');
    writeFileSync(path.join(ws.root, 'f.txt'), 'THEIRS\n');
    git(ws.root, 'commit', '-qam', 'theirs');
    git(ws.root, 'checkout', '-q', '-');
    writeFileSync(path.join(ws.root, 'f.txt'), 'OURS\n');
    git(ws.root, 'commit', '-qam', 'ours');
    const out = await run("git -c user.email=t@t -c user.name=t merge theirs -m 'merged'; echo exit=$?");
    expect(out.content).toContain('CONFLICT');
    expect(out.content).toContain('exit=1');
    expect(readFileSync(path.join(ws.root, 'f.txt'), 'utf8')).toContain('<<<<<<< ours');
    expect(existsSync(mark('driver'))).toBe(false);
  });

  it("git archive runs no compressor of the repository's: it fails and says why", async () => {
    const { ws, run, config, mark } = await repository('');
    config(['[tar "tgz"]', `\tcommand = "touch ${mark('tgz')}; gzip -cn"`]);
    const out = await run(`git archive --format=tgz -o ${path.join(ws.outside, 'out.tgz')} HEAD; echo exit=$?`);
    expect(out.content).toContain("this repository's archive command for tgz was not run");
    expect(out.content).toContain('exit=128');
    expect(existsSync(mark('tgz'))).toBe(false);
  });

  it('keys keep their subsection as written; section and variable are lowercased', () => {
    expect(canonicalKey('DIFF.Evil.TextConv')).toBe('diff.Evil.textconv');
    expect(canonicalKey('Filter.a.B.Clean')).toBe('filter.a.B.clean');
    expect(canonicalKey('Diff.External')).toBe('diff.external');
    expect(neutralSettings(['diff.Evil.textconv', 'diff.evil.textconv']).map(([key]) => key)).toEqual([
      'diff.Evil.textconv',
      'diff.evil.textconv',
    ]);
  });
});
