/**
 * Bash evaluates a variable name given to some builtins, subscript included: a name like
 * `a[$(cmd)]` runs cmd. `sleep 0 & wait -n -p 'a[$(cmd)]'` (bash 5.1's `wait -p`) ran cmd while
 * the check read it as ReadOnly, so with no sandbox it ran with no key. Every case below is run
 * by the real bash in a temp folder (its command only creates the file `m` there) and given to
 * the classifier: a case that made bash run its command must not be ReadOnly. The cases that held
 * are kept too, so that a change to the check that opens one shows here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../src/core/approval/command-risk';
import { tempDirForTest } from '../support/after-the-test';

/** Lines of bash, data given to bash -c in a temp folder; each one's command only creates `m`. */
const CASES = [
  "getopts ab 'a[$(touch m)]' -a",
  "getopts ab 'a[$(touch m)]'",
  "wait -n -p 'a[$(touch m)]'",
  "sleep 0 & wait -n -p 'a[$(touch m)]'",
  "ulimit -t 'a[$(touch m)]'",
  "ulimit -c 'a[$(touch m)]'",
  "shift 'a[$(touch m)]'",
  "exit 'a[$(touch m)]'",
  "return 'a[$(touch m)]'",
  "printf '%d' 'a[$(touch m)]'",
  "test 'a[$(touch m)]' -eq 1",
  "[ 'a[$(touch m)]' -eq 1 ]",
  "[[ 'a[$(touch m)]' -eq 1 ]]",
  "read -a 'a[$(touch m)]' <<< x",
  "mapfile 'a[$(touch m)]' < /dev/null",
  "mapfile -t 'a[$(touch m)]' < /dev/null",
  "declare -n r='a[$(touch m)]'; echo $r",
  "export 'a[$(touch m)]=1'",
  "local 'a[$(touch m)]=1'",
  "readonly 'a[$(touch m)]=1'",
  "declare 'a[$(touch m)]=1'",
  "typeset 'a[$(touch m)]=1'",
  "unset -v 'a[$(touch m)]'",
  "unset -n 'a[$(touch m)]'",
  "kill -s 'a[$(touch m)]' $$",
  "kill -l 'a[$(touch m)]'",
  "let 'a[$(touch m)]'",
  "set -- 'a[$(touch m)]'; shift $1",
  "dirs +'a[$(touch m)]'",
  "seq 'a[$(touch m)]'",
  "expr 'a[$(touch m)]' + 1",
  "times 'a[$(touch m)]'",
  "caller 'a[$(touch m)]'",
  "umask 'a[$(touch m)]'",
  "jobs 'a[$(touch m)]'",
  "wait 'a[$(touch m)]'",
  "type 'a[$(touch m)]'",
  "hash 'a[$(touch m)]'",
  "help 'a[$(touch m)]'",
  'echo "${a[$(touch m)]}"',
  "x='a[$(touch m)]'; echo ${!x}",
  "x='a[$(touch m)]'; echo $((x))",
  "x='a[$(touch m)]'; [[ $x -eq 0 ]]",
  "x='a[$(touch m)]'; test $x -eq 0",
  "x='a[$(touch m)]'; echo ${x@P}",
  "x='$(touch m)'; echo ${x@P}",
  "printf -v 'a[$(touch m)]' x",
  "read 'a[$(touch m)]' <<< x",
  "test -v 'a[$(touch m)]'",
  "[ -v 'a[$(touch m)]' ]",
  "[[ -v 'a[$(touch m)]' ]]",
  "declare -p 'a[$(touch m)]'",
  "declare -A a; a['$(touch m)']=1",
  "declare -a a; a['$(touch m)']=1",
  "a=(); a['$(touch m)']=1",
  'shopt -s expand_aliases',
  'alias',
  'trap',
  'set -o',
  'ulimit -a',
  "cd 'a[$(touch m)]'",
  "pushd 'a[$(touch m)]'",
  "popd +'a[$(touch m)]'",
  "history 'a[$(touch m)]'",
  "fc -l 'a[$(touch m)]'",
  'set -u; echo ${a[$(touch m)]-}',
  "for i in 'a[$(touch m)]'; do :; done",
  "for (( 'a[$(touch m)]'; 0; )); do :; done",
  "case x in 'a[$(touch m)]') ;; esac",
  'select x in a; do break; done < /dev/null',
  "sleep 0 & wait -n -p 'a[$(touch m)]'",
  "sleep 0 & wait -np 'a[$(touch m)]'",
  "sleep 0 & wait -n -p'a[$(touch m)]'",
  "sleep 0 & wait -fn -p 'a[$(touch m)]'",
  "sleep 0 & wait -p 'a[$(touch m)]' -n",
  'sleep 0 & x=$(cat f); wait -n $x',
  'sleep 0 & wait -n -p job; echo $job',
  'sleep 0 & wait "$!"',
  'sleep 0 & wait $!',
  'sleep 0 & wait',
];

/** The cases the check read as ReadOnly while bash ran their command. */
const WAS_READ_ONLY = [
  "sleep 0 & wait -n -p 'a[$(touch m)]'",
  "sleep 0 & wait -np 'a[$(touch m)]'",
  "sleep 0 & wait -n -p'a[$(touch m)]'",
  "sleep 0 & wait -fn -p 'a[$(touch m)]'",
  "sleep 0 & wait -p 'a[$(touch m)]' -n",
];

/**
 * A background job that ends once its shell (`$$` in a subshell) is blocked in `wait`, or is gone
 * (a bash that refuses the line's `wait` exits at once: the job must not outlive it, spinning).
 */
const JOB_ENDS_IN_THE_WAIT = 'until grep -qx do_wait /proc/$$/wchan || ! [ -e /proc/$$ ]; do :; done';

/** Whether the real bash, given `line`, ran the command inside it (the file `m` was made). */
function bashRuns(line: string): boolean {
  const dir = tempDirForTest('tole-bash-eval-');
  // A file a repository could hold, read by `x=$(cat f)`: `-p` with a name that runs a command.
  writeFileSync(path.join(dir, 'f'), '-pa[$(touch${IFS}m)]');
  const run = spawnSync('bash', ['--norc', '-c', line], {
    cwd: dir,
    stdio: 'ignore',
    timeout: 10_000,
    env: { PATH: '/usr/bin:/bin' },
  });
  expect(run.error, line).toBeUndefined();
  return existsSync(path.join(dir, 'm'));
}

describe('a name bash evaluates is not read as plain', () => {
  it.each(CASES)('%s: not ReadOnly if bash runs what is inside', (line) => {
    if (bashRuns(line)) expect(classifyCommand(line).risk, line).not.toBe('ReadOnly');
  });

  it.each(WAS_READ_ONLY)('%s: bash runs what is inside, and tole asks', (line) => {
    // `wait -n` evaluates the name only when it has a job to report: once, in a loaded full run,
    // bash had none (`sleep 0` ended and was reported before `wait` started) and `m` was not made.
    // bash is given the line with a job that ends only once bash waits for it (the shell's wchan,
    // read from /proc, is do_wait), so it always has one to report; the classifier, the line as it is.
    expect(bashRuns(line.replace('sleep 0', () => JOB_ENDS_IN_THE_WAIT))).toBe(true);
    expect(classifyCommand(line)).toMatchObject({ risk: 'Write', opaque: true });
  });

  it('a plain name, a number and `$!` stay as they were', () => {
    for (const line of ['sleep 0 & wait -n -p job; echo $job', 'sleep 0 & wait', 'wait -n', 'wait 1'])
      expect(classifyCommand(line).risk, line).toBe('ReadOnly');
    expect(classifyCommand('sleep 0 & wait -n -p job').risk).toBe('ReadOnly');
  });
});
