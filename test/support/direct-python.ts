/**
 * The PATH for the commands a test runs, with `python3` reaching the interpreter it names directly.
 * A version manager's shim first in the user's PATH (pyenv's on the machine the suite runs on) is
 * a script that starts a dozen bash, readlink and sed children to find the interpreter before it
 * runs it: `python3 -c 0` cost 0.13 s of CPU through the shim against 0.05 s run directly
 * (/usr/bin/time, three runs each), and the attack tests start python3 45 times a file. The link
 * leads to the very interpreter the shim would run (the one `sys.executable` names), so what a
 * command does with it is unchanged; every other name is found through the PATH as given.
 */
import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirForTest } from './after-the-test';

let interpreter: string | null | undefined;

/** The interpreter `python3` runs through `path`, asked once per process (null where there is none). */
function interpreterOf(path: string): string | null {
  if (interpreter === undefined) {
    const asked = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: path },
    });
    const found = asked.status === 0 ? asked.stdout.trim() : '';
    interpreter = found.startsWith('/') ? found : null;
  }
  return interpreter;
}

/**
 * `path` with a folder of the test's own first, holding only `python3`: a link to the interpreter
 * it names. `path` as it is where python3 is not found. Called from within a test (the folder goes
 * when the test ends).
 */
export function withDirectPython(path: string): string {
  const python = interpreterOf(path);
  if (python === null) return path;
  const dir = tempDirForTest('tole-python-');
  symlinkSync(python, join(dir, 'python3'));
  return `${dir}:${path}`;
}
