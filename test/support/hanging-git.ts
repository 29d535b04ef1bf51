/**
 * A git that hangs where a test says: a real wrapper, first on the path, that runs the real git
 * except at the step named in its flag file, where it starts a child, says both pids and waits;
 * and a checkpoint time limit that passes when the test says so.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StartTimer } from '../../src/core/checkpoints/git-stop';
import { tempDirForTest } from './after-the-test';
import { fileAppears } from './file-appears';

const realGit = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();

export interface HangingGit {
  readonly binary: string;
  /** Makes the git hang at `step` (a git command name) from now on. */
  hangAt(step: string): void;
  /** Lets every git run again. */
  release(): void;
  /** Resolves once a git hangs, with its pid and its background child's. */
  hanging(): Promise<{ git: number; child: number }>;
}

/** A git that runs the real one, except at the step named in its flag file: there it starts a child, says both pids and waits. */
export function hangingGit(): HangingGit {
  const dir = tempDirForTest('tole-hanging-git-');
  const flag = join(dir, 'hang-at');
  const pids = join(dir, 'pids');
  const binary = join(dir, 'git');
  writeFileSync(
    binary,
    `#!/bin/sh
step=$(cat '${flag}' 2>/dev/null)
case " $* " in *" $step "*) if [ -n "$step" ]; then
  sleep 1000 & echo "$$ $!" > '${pids}.tmp'; mv '${pids}.tmp' '${pids}'; wait; fi;; esac
exec '${realGit}' "$@"
`,
  );
  chmodSync(binary, 0o755);
  return {
    binary,
    hangAt: (step) => writeFileSync(flag, step),
    release: () => rmSync(flag, { force: true }),
    hanging: async () => {
      await fileAppears(pids);
      const [git, child] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
      rmSync(pids);
      return { git: git!, child: child! };
    },
  };
}

/** A time limit that passes when the test says so. */
export function testTimer(): { timer: StartTimer; expire(): void } {
  const pending = new Set<() => void>();
  return {
    timer: (_ms, fire) => {
      pending.add(fire);
      return () => pending.delete(fire);
    },
    expire: () => {
      for (const fire of [...pending]) fire();
    },
  };
}
