/**
 * A repository config, or a file it includes, that is a FIFO (planted by the repository, or by a
 * confined command in the workspace) blocks `git config --list` for good. tole's read of the
 * config before a command sees git waiting on it (fifo-watch.ts) and refuses the command with a
 * reason that names the FIFO, rather than after its 10 s limit with "did not answer".
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withGitGuard } from '../../src/core/git-guard-env';
import { readRepositoryConfig } from '../../src/core/git-repo-config-read';
import { tempWorkspace } from './tools/temp-workspace';

describe.runIf(process.platform === 'linux')('a git config that is a FIFO', () => {
  it('an included file that is a FIFO: the read fails naming it', async () => {
    const ws = await tempWorkspace();
    execFileSync('git', ['init', '-q'], { cwd: ws.root });
    appendFileSync(path.join(ws.root, '.git', 'config'), '[include]\n\tpath = ../team.cfg\n');
    execFileSync('mkfifo', [path.join(ws.root, 'team.cfg')]);
    const env = withGitGuard({ PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: ws.outside });
    await expect(readRepositoryConfig(ws.root, env)).rejects.toThrow(
      `git config waited on the FIFO ${path.join(ws.root, 'team.cfg')}`,
    );
  });
});
