/**
 * A FIFO planted where git reads (an ignore or attributes file, .gitmodules, .mailmap, a nested
 * repository's ignore file) by the repository or by a confined command (`mkfifo` may write the
 * workspace): the checkpoint's git blocks opening it (open(2) of a FIFO for reading waits for a
 * writer) or reading it (a writer that opened it and writes nothing). The turn must end, the
 * checkpoint must say which path stopped it and what to do, and a second start must end too.
 *
 * Built tole, real processes; the runs are bounded by the vitest timeout and a kill far above it
 * only to end a hung child: a run that ended by itself has an exit code.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileChatServer } from '../support/file-chat-server';
import { fifos } from '../support/fifos';
import { tempDirs } from '../support/agent-fixtures';
import { runBuiltTole } from '../support/built-tole';

const USER_PATH = '/usr/local/bin:/usr/bin:/bin';
const writers: ChildProcess[] = [];

const chat = fileChatServer({ defaultReply: { text: 'done' } }, { built: true });

afterAll(() => {
  for (const w of writers) if (w.exitCode === null) w.kill('SIGKILL');
});

interface Plant {
  readonly name: string;
  /** The path of the FIFO that the notice names. */
  readonly fifo: string;
  readonly make: (root: string) => void;
  /** The bash call of the first turn (it may plant the FIFO itself). */
  readonly command?: string;
  /** The calls are write_file of `src/w<round>.txt` (a checkpoint of the paths tole named) in place of bash. */
  readonly writes?: true;
  /**
   * Which runs' notices name the FIFO: `each` where every scan's git reads it, `some` where the
   * first turn's checkpoint reads only the paths the call named (a later start's scan reads it),
   * `none` where no git of tole's reads it (the run must end all the same).
   */
  readonly named: 'each' | 'some' | 'none';
}

const PLANTS: readonly Plant[] = [
  { name: 'the root .gitignore', fifo: '.gitignore', named: 'each', make: (root) => fifos(root, ['.gitignore']) },
  {
    name: 'the root .gitattributes',
    fifo: '.gitattributes',
    named: 'each',
    make: (root) => fifos(root, ['.gitattributes']),
  },
  {
    name: "a folder's .gitignore",
    fifo: 'src/.gitignore',
    named: 'each',
    make: (root) => fifos(root, ['src/.gitignore']),
  },
  {
    name: '.gitignore planted by the confined command itself',
    fifo: '.gitignore',
    named: 'some',
    make: () => {},
    command: 'mkfifo .gitignore && echo x > new.txt',
  },
  {
    name: "a folder's .gitignore, the call a write_file into that folder",
    fifo: 'src/.gitignore',
    named: 'each',
    writes: true,
    make: (root) => fifos(root, ['src/.gitignore']),
  },
  { name: '.gitmodules', fifo: '.gitmodules', named: 'none', make: (root) => fifos(root, ['.gitmodules']) },
  {
    name: "a folder's .git file (a nested repository's pointer)",
    fifo: 'sub/.git',
    named: 'none',
    make: (root) => fifos(root, ['sub/.git']),
  },
  { name: '.mailmap', fifo: '.mailmap', named: 'none', make: (root) => fifos(root, ['.mailmap']) },
  {
    name: "a nested repository's .gitignore",
    fifo: 'nested/.gitignore',
    named: 'none',
    make: (root) => {
      mkdirSync(join(root, 'nested'));
      execFileSync('/usr/bin/git', ['init', '-q'], { cwd: join(root, 'nested'), env: { PATH: USER_PATH } });
      writeFileSync(join(root, 'nested', 'a.txt'), 'a\n');
      fifos(root, ['nested/.gitignore']);
    },
  },
  {
    name: 'a .gitignore whose writer opened it and writes nothing',
    fifo: '.gitignore',
    named: 'none',
    make: (root) => {
      fifos(root, ['.gitignore']);
      // Holds the FIFO open for writing and never writes: git's open passes, and git reads nothing
      // of an ignore file whose size is 0 (a FIFO's), so this one ends without a notice; a git
      // blocked reading a FIFO is seen by fifo-watch.ts (a-git-waiting-on-a-fifo-is-seen.test.ts).
      const writer = spawn('/bin/sh', ['-c', 'exec 3>"$1"; exec sleep 100000', 'sh', join(root, '.gitignore')], {
        stdio: 'ignore',
      });
      writers.push(writer);
    },
  },
];

describe('a FIFO where git reads ends the checkpoint, not the turn', () => {
  for (const plant of PLANTS) {
    it(
      `${plant.name}: the turn ends${plant.named === 'none' ? '' : ', a notice names the FIFO where git waited'}, and a second start ends too`,
      {
        timeout: 150_000,
      },
      async () => {
        const d = tempDirs('tole-fifo-');
        writeFileSync(join(d.root, 'README.md'), 'hello\n');
        execFileSync('/usr/bin/git', ['init', '-q'], { cwd: d.root, env: { PATH: USER_PATH } });
        plant.make(d.root);
        const env = { PATH: USER_PATH, HOME: d.parent, TOLE_HOME: d.home, LANG: 'C.UTF-8', OPENAI_API_KEY: 'sk-test' };
        let notices = '';
        for (const round of [1, 2]) {
          const command =
            round === 1 && plant.command !== undefined ? plant.command : `echo ${round} > new${round}.txt`;
          chat.server.push(
            plant.writes
              ? {
                  toolCalls: [
                    {
                      id: `c${round}`,
                      name: 'write_file',
                      arguments: JSON.stringify({ path: `src/w${round}.txt`, content: 'w\n' }),
                    },
                  ],
                }
              : { toolCalls: [{ id: `c${round}`, name: 'bash', arguments: JSON.stringify({ command }) }] },
            { text: 'done' },
          );
          const run = await runBuiltTole(
            ['-p', 'write a file', '--yes', '--base-url', chat.server.url, '--model', 'm'],
            {
              cwd: d.root,
              env,
              timeoutMs: 140_000,
            },
          );
          expect(run.code, `round ${round}: ${run.stderr}`).not.toBeNull();
          expect(run.stdout + run.stderr, `round ${round}`).toContain('done');
          if (plant.named === 'each') expect(run.stderr, `round ${round}`).toContain(`${plant.fifo}, where git reads`);
          notices += run.stderr;
        }
        if (plant.named === 'some') expect(notices).toContain(`${plant.fifo}, where git reads`);
      },
    );
  }
});
