/**
 * What a checkpoint test compares: every file, symlink and directory of a workspace (bytes as a
 * hash, permission bits, kind), and the state of the user's own git repository in it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export type TreeState = Record<string, string>;

/** path -> "dir 755" | "file 644 <sha256>" | "link -> target", for everything but `.git`. */
export function treeState(root: string, skip: readonly string[] = ['.git']): TreeState {
  const out: TreeState = {};
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const rel = prefix ? `${prefix}/${name}` : name;
      if (skip.includes(rel)) continue;
      const full = join(dir, name);
      const stat = lstatSync(full);
      const mode = (stat.mode & 0o777).toString(8);
      if (stat.isSymbolicLink()) out[rel] = `link -> ${readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        out[rel] = `dir ${mode}`;
        walk(full, rel);
      } else out[rel] = `file ${mode} ${createHash('sha256').update(readFileSync(full)).digest('hex')}`;
    }
  };
  walk(root, '');
  return out;
}

/** A user's git command in the workspace, with a fixed identity and no user config. */
export function userGit(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=user', '-c', 'user.email=user@example.com', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: root,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  });
}

/** HEAD, the index file's bytes, the stash, the untracked files and every file under `.git`. */
export function userRepoState(root: string): Record<string, string> {
  const gitDir = treeState(join(root, '.git'), []);
  return {
    head: userGit(root, 'rev-parse', 'HEAD'),
    branch: userGit(root, 'symbolic-ref', '-q', 'HEAD'),
    index: createHash('sha256')
      .update(readFileSync(join(root, '.git', 'index')))
      .digest('hex'),
    stash: userGit(root, 'stash', 'list', '--format=%H %s'),
    untracked: userGit(root, 'ls-files', '--others', '--exclude-standard'),
    gitDir: JSON.stringify(gitDir),
  };
}
