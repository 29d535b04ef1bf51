/**
 * A FIFO or a directory where a session file should be: the built tole run as a child, killed
 * after 30 s if it hangs (opening a FIFO blocks until a writer comes). Every case ends with one
 * clear line and exit 1, like any other file that cannot be read.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBuiltTole } from '../support/built-tole';
import type { ChildRun } from '../support/spawn-node';
import { tempDirForFile } from '../support/after-the-test';

const root = tempDirForFile('tole-special-');
const home = join(root, 'tole-home');
const sessions = join(home, 'sessions');
const fifo = join(root, 'pipe.jsonl');
const directory = join(root, 'x.jsonl');
const env = { PATH: process.env.PATH, HOME: root, TOLE_HOME: home, LANG: 'C.UTF-8' };
// Not the home folder, nor one holding tole's: such a workspace adds a notice of its own at start.
const workspace = join(root, 'project');

beforeAll(() => {
  ensureBuilt();
  mkdirSync(sessions, { recursive: true });
  mkdirSync(workspace);
  execFileSync('mkfifo', [fifo]);
  execFileSync('mkfifo', [join(sessions, '1700000000000000000-abcdef.jsonl')]);
  mkdirSync(directory);
}, 120_000);

function tole(args: readonly string[]): Promise<ChildRun> {
  return runBuiltTole(args, { cwd: workspace, env, timeoutMs: 30_000 });
}

function oneLine(run: ChildRun, stream: 'stdout' | 'stderr'): string {
  expect(run.signal, 'tole hung and was killed').toBeNull();
  const lines = run[stream].split('\n').filter((line) => line !== '' && !line.startsWith('session file: '));
  expect(lines, run.stderr + run.stdout).toHaveLength(1);
  return lines[0]!;
}

describe.concurrent('a session path that is not a regular file', () => {
  it.each([
    { what: 'a FIFO', path: fifo, words: 'it is a FIFO (named pipe), not a session file' },
    { what: 'a directory', path: directory, words: 'it is a directory, not a session file' },
  ])('$what: check, export and --resume each say so in one line and exit 1', async ({ path, words }) => {
    const [check, exported, resumed] = await Promise.all([
      tole(['check', path]),
      tole(['export', path]),
      tole(['--resume', path, '-p', 'hello', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm']),
    ]);
    expect(check.code).toBe(1);
    expect(oneLine(check, 'stdout')).toBe(`PROBLEM (unreadable): ${path}: cannot be read as a session: ${words}`);
    for (const run of [exported, resumed]) {
      expect(run.code, run.stderr).toBe(1);
      expect(oneLine(run, 'stderr')).toBe(`tole: ${path}: cannot be read as a session: ${words}`);
    }
  });

  it('tole sessions lists a FIFO among the files it cannot read instead of hanging on it', async () => {
    const run = await tole(['sessions', '--all']);
    expect(run.signal, 'tole hung and was killed').toBeNull();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1700000000000000000-abcdef.jsonl');
  });
});
