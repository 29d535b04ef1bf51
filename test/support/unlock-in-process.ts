/** `tole unlock` run in this process, as the command line would run it, with what it prints caught. */
import { parseArgs } from '../../src/cli/args';
import { runUnlock } from '../../src/cli/unlock-command';

export interface UnlockRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** `tole unlock PATH ...flags` from `cwd`: its exit code, stdout and stderr. */
export function unlockIn(cwd: string, path: string, ...flags: string[]): UnlockRun {
  let out = '';
  let err = '';
  const stream = (add: (text: string) => void) =>
    ({ write: (chunk: string) => (add(chunk), true) }) as unknown as NodeJS.WritableStream;
  const code = runUnlock(parseArgs(['unlock', path, ...flags]), {
    cwd,
    stdout: stream((t) => (out += t)),
    stderr: stream((t) => (err += t)),
  });
  return { code, out, err };
}
