/**
 * A confined command makes a repository at the root of a workspace that is none, whose config
 * names a program for every kind of git run (core.fsmonitor, a hook, a filter and a textconv for
 * every file, an alias, a pager, an include). Two questions, with real git:
 * - tole's own gits in that workspace (the listing of the @-file index, the repository-config
 *   reader, a checkpoint scan): with the repository left in place, none runs the program: they were
 *   safe before the repository was moved aside, and the test says so;
 * - the built tole under --yes: the command's result tells the model what was found and where, the
 *   `.git` is moved aside, a second command runs, the turn ends with its checkpoints, and the
 *   user's own git (no guard) there afterwards runs nothing.
 * The sandboxed case needs a working bwrap; without it it skips and says why.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listWorkspace } from '../../src/cli/workspace-file-index';
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';
import { withGitGuard } from '../../src/core/git-guard-env';
import { QUARANTINE_SUFFIX } from '../../src/core/git-left-behind';
import { readRepositoryConfig } from '../../src/core/git-repo-config-read';
import { detectSandbox } from '../../src/core/tools/sandbox';
import { chatRequests, tempDirs } from '../support/agent-fixtures';
import { runBuiltTole } from '../support/built-tole';
import { fileChatServer } from '../support/file-chat-server';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
if (!sandbox) console.log('skipping the built-tole case: no working bwrap here');

const chat = fileChatServer({ defaultReply: { text: 'done' } }, { built: true });
const PATH = process.env['PATH'] ?? '/usr/bin:/bin';

/** The shell lines that plant the repository; each planted program touches a file of `marks`. */
function plantLines(marks: string): string {
  const run = (name: string) => `touch ${path.join(marks, name)}`;
  return [
    'git init -q .',
    `git config core.fsmonitor "${run('fsmonitor')}"`,
    `git config core.pager "${run('pager')}"`,
    `git config alias.st "!${run('alias')}"`,
    `git config filter.x.clean "${run('clean')}; cat"`,
    `git config filter.x.smudge "${run('smudge')}; cat"`,
    `git config diff.x.textconv "${run('textconv')}; cat"`,
    'mkdir -p hooks',
    `printf "#!/bin/sh\\n${run('hook')}\\n" > hooks/post-index-change`,
    'chmod +x hooks/post-index-change',
    'git config core.hooksPath hooks',
    'printf "* filter=x diff=x\\n" > .gitattributes',
    'echo text > file.txt',
  ].join(' && ');
}

const marksIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);

describe("tole's own gits in a workspace a command planted a repository in", () => {
  it('the file index listing, the config reader and a checkpoint scan run none of its programs', async () => {
    const d = tempDirs('tole-own-gits-');
    const marks = path.join(d.outside, 'marks');
    mkdirSync(marks);
    execFileSync('bash', ['--norc', '-c', plantLines(marks)], { cwd: d.root, env: { PATH, HOME: d.outside } });
    const env = withGitGuard({ PATH, HOME: d.outside });
    expect(await listWorkspace(d.root)).toContain('file.txt');
    const config = await readRepositoryConfig(d.root, env, 'git status');
    expect(config?.entries.map((entry) => entry.key)).toContain('core.fsmonitor');
    const checkpoints = Checkpoints.create({ home: d.home, workspaceRoot: d.root, gitBinary: 'git' });
    const taken = await checkpoints.take();
    expect(taken.ok, JSON.stringify(taken)).toBe(true);
    expect(marksIn(marks)).toEqual([]);
    // The control: the user's own git there runs them (the hole this file is about).
    spawnSync('git', ['status'], { cwd: d.root, env: { PATH, HOME: d.outside, GIT_CONFIG_NOSYSTEM: '1' } });
    expect(marksIn(marks)).toContain('fsmonitor');
  });
});

describe.skipIf(!sandbox)('the built tole after a confined command planted a repository', () => {
  it('tells the model, moves the .git aside, and the user’s next git runs nothing', async () => {
    const d = tempDirs('tole-left-git-');
    const marks = path.join(d.outside, 'marks');
    mkdirSync(marks);
    writeFileSync(path.join(d.root, 'notes.txt'), 'notes\n');
    chat.server.push(
      { toolCalls: [{ id: 'call_plant', name: 'bash', arguments: JSON.stringify({ command: plantLines(marks) }) }] },
      {
        toolCalls: [
          { id: 'call_next', name: 'bash', arguments: JSON.stringify({ command: 'echo more >> notes.txt' }) },
        ],
      },
      { text: 'done' },
    );
    const run = await runBuiltTole(
      ['-p', 'plant a repository', '--yes', '--base-url', chat.server.url, '--model', 'm'],
      { cwd: d.root, env: { PATH, HOME: d.parent, TOLE_HOME: d.home, LANG: 'C.UTF-8' } },
    );
    expect(run.code, run.stderr).toBe(0);
    const requests = chatRequests(chat.server);
    const afterPlant = JSON.stringify(requests.at(-2)?.body);
    expect(afterPlant).toContain('left git settings that would run a program');
    expect(afterPlant).toContain('core.fsmonitor');
    expect(afterPlant).toContain(`.git${QUARANTINE_SUFFIX}`);
    expect(existsSync(path.join(d.root, '.git'))).toBe(false);
    expect(existsSync(path.join(d.root, `.git${QUARANTINE_SUFFIX}`, 'config'))).toBe(true);
    for (const args of [['status'], ['st'], ['diff'], ['log', '-p']])
      spawnSync('git', args, { cwd: d.root, env: { PATH, HOME: d.outside, GIT_CONFIG_NOSYSTEM: '1' } });
    expect(marksIn(marks)).toEqual([]);
  });
});
