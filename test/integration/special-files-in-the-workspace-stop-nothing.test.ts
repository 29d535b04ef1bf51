/**
 * A repository (or a confined command, which may write the workspace) plants FIFOs and links to
 * devices where tole's own unconfined reads and gits look: ignore and attribute files,
 * the instructions files, the project config, a file the checkpoint scan reads. A FIFO waits for
 * a writer that never comes, a device such as /dev/zero never ends: tole must neither hang nor
 * read them, and the turn ends as it would without them.
 *
 * A FIFO for the workspace's `.gitignore`, its `.gitattributes` or a folder's `.gitignore` (where
 * the checkpoint's git blocks) is in fifo-where-git-reads-ends-the-turn.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileChatServer } from '../support/file-chat-server';
import { fifos } from '../support/fifos';
import { tempDirs } from '../support/agent-fixtures';
import { runBuiltTole } from '../support/built-tole';

const USER_PATH = '/usr/local/bin:/usr/bin:/bin';

const chat = fileChatServer({ defaultReply: { text: 'done' } }, { built: true });

interface Plant {
  readonly name: string;
  readonly make: (root: string) => void;
}

const PLANTS: readonly Plant[] = [
  { name: "a FIFO for a folder's .gitattributes", make: (root) => fifos(root, ['src/.gitattributes']) },
  {
    name: 'a FIFO for .git/info/exclude',
    make: (root) => {
      rmSync(join(root, '.git/info/exclude'));
      fifos(root, ['.git/info/exclude']);
    },
  },
  {
    name: 'FIFOs for the instructions files',
    make: (root) => fifos(root, ['AGENTS.md', 'CLAUDE.md', '.tole/AGENTS.md']),
  },
  { name: 'a FIFO for the project config', make: (root) => fifos(root, ['.tole/config.json']) },
  { name: 'a FIFO among the files', make: (root) => fifos(root, ['data.txt', 'src/a.ts']) },
  {
    name: 'links to /dev/zero and a terminal for the files tole reads',
    make: (root) => {
      mkdirSync(join(root, '.tole'), { recursive: true });
      for (const p of ['.gitignore', '.gitattributes', 'AGENTS.md', '.tole/config.json', 'zero.txt'])
        symlinkSync('/dev/zero', join(root, p));
      symlinkSync('/dev/tty', join(root, 'tty.txt'));
    },
  },
];

describe('special files planted in the workspace stop nothing tole does', () => {
  for (const plant of PLANTS) {
    it(`${plant.name}: a turn with a bash call ends, and a second start too`, { timeout: 120_000 }, async () => {
      const d = tempDirs('tole-special-');
      writeFileSync(join(d.root, 'README.md'), 'hello\n');
      execFileSync('/usr/bin/git', ['init', '-q'], { cwd: d.root, env: { PATH: USER_PATH } });
      plant.make(d.root);
      const env = { PATH: USER_PATH, HOME: d.parent, TOLE_HOME: d.home, LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-test' };
      for (const round of [1, 2]) {
        chat.server.push(
          {
            toolCalls: [{ id: `c${round}`, name: 'bash', arguments: JSON.stringify({ command: 'echo x > new.txt' }) }],
          },
          { text: 'done' },
        );
        const run = await runBuiltTole(['-p', 'write a file', '--yes', '--base-url', chat.server.url, '--model', 'm'], {
          cwd: d.root,
          env,
          timeoutMs: 45_000,
        });
        expect(run.code, `round ${round}: ${run.stderr}`).not.toBeNull();
        expect(run.stdout + run.stderr, `round ${round}`).toContain('done');
      }
    });
  }
});
