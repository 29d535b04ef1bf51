/**
 * A git that logs each start: a real wrapper, first on the path, that appends a line per run (its
 * arguments, and for a `gc` the loose objects objects/17 held then) and runs the real git.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

export interface LoggingGit {
  readonly binary: string;
  /** Each git started so far, as its arguments joined by spaces. */
  starts(): string[];
  /** For each `gc` started, how many loose objects objects/17 held as it started. */
  gcs(): number[];
}

export function loggingGit(dir: string): LoggingGit {
  const binary = join(dir, 'git');
  const log = join(dir, 'git-starts.log');
  const gcLog = join(dir, 'gc.log');
  writeFileSync(
    binary,
    `#!/bin/sh
echo "$*" >> '${log}'
case " $* " in *" gc "*) ls "$GIT_DIR/objects/17" 2>/dev/null | wc -l >> '${gcLog}';; esac
exec '${realGit}' "$@"
`,
  );
  chmodSync(binary, 0o755);
  const linesOf = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []);
  return { binary, starts: () => linesOf(log), gcs: () => linesOf(gcLog).map(Number) };
}
