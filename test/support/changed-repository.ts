/**
 * The repository the attack tests turn against tole's git: `evil`, whose f.x is committed and then
 * changed, so that `git diff` (and a checkout, a status) reaches the driver `.gitattributes` gives
 * *.x. What the driver runs is each test's own.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { copyOfMadeOnce } from './made-once-per-file';

/** git in `cwd` with a committer of its own (a test machine may have none). */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/**
 * `parent`/evil: f.x committed as "one", then "two" added to it; `.gitattributes` gives *.x
 * `attributes` (the driver `evil` for diff and filter unless told). Returns its path. Built once per
 * test file and attributes, and copied for each test (made-once-per-file.ts).
 */
export function changedRepository(parent: string, attributes = 'diff=evil filter=evil'): string {
  const repo = path.join(parent, 'evil');
  copyOfMadeOnce(`changed repository: ${attributes}`, (dir) => build(dir, attributes), repo);
  return repo;
}

function build(repo: string, attributes: string): void {
  git(repo, 'init', '-q');
  writeFileSync(path.join(repo, 'f.x'), 'one\n');
  writeFileSync(path.join(repo, '.gitattributes'), `*.x ${attributes}\n`);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'first');
  appendFileSync(path.join(repo, 'f.x'), 'two\n');
}
