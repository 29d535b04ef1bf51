/**
 * Without a sandbox a ReadOnly command runs unconfined with no key, and tole's own process holds
 * the provider's key in its environment. Each line below read it, or any process's environment,
 * and was classified ReadOnly: `ps e` prints environments, and a path the check read as text only
 * (`/./pro?/1/environ`, `/{proc,x}`, `/$x`, `pro?` after `cd /`, `/` walked by `grep -r`, `rg`)
 * reaches `/proc/<pid>/environ`. Run through `tole -p` with TOLE_NO_SANDBOX=1, `ps axe | grep -o
 * 'OPENAI_API_KEY=[^ ]*'` put the key in the session file and sent it to the model. Each is at least
 * Write now; the lines a reader uses every day stay ReadOnly. Also kept: the other lines tried
 * against the read-only check, which it already held.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../src/core/approval/command-risk';

const risk = (line: string) => classifyCommand(line).risk;

const HOLES = [
  // ps prints environments with BSD `e` (procps reads `-axe`, `-xe` BSD-style too).
  'ps axe',
  'ps eww',
  'ps e -p 1',
  'ps -ef e',
  'ps -axe',
  'ps -xe',
  'ps ewwo args -C node',
  "ps axe | grep -o 'OPENAI_API_KEY=[^ ]*'",
  'x=axe; ps $x',
  'ps "$@"',
  // /proc named by a pattern, a brace or a variable the text check read literally.
  'cat /./pro?/1/environ',
  'cat //pro?/1/environ',
  'cat /{proc,x}/1/environ',
  'x=proc; cat /$x/1/environ',
  'cat /${x:-proc}/1/environ',
  'cat /proc${x}/1/environ',
  'cd / && cat pro?/1/environ',
  'cd / && grep -a KEY p*/*/environ',
  'cd .. && cat pro?/1/environ',
  'pushd / && cat pro?/1/environ',
  'cd / && cat {pr,x}oc/1/environ',
  // The root walked by a recursive reader goes through /proc.
  "grep -rsa --include=environ -o 'OPENAI_API_KEY=[^ ]*' / --exclude-dir={work,usr,tmp,sys}",
  'grep -rsa --include=environ KEY / --exclude-dir=work',
  'rg -a -g environ KEY /',
  'rg -a --no-ignore -g environ KEY /',
  'grep -ra KEY /.',
  'grep -r --include=environ KEY //',
  'cd / && grep -ra KEY .',
  'cd / && rg -a -g environ KEY',
  'cd ~/../.. && rg KEY',
  'cd $HOME/../.. && rg KEY',
  // A `cd` whose landing only the run knows, then a reader with no path.
  'cd - && rg -g environ KEY',
  'cd $OLDPWD && rg KEY',
  'popd && rg KEY',
  'pushd +1 && rg KEY',
  // Not an environment, but another process changed with no key: its I/O class.
  'ionice -c3 -p 1',
];

const STAY_READ_ONLY = [
  'ps aux',
  'ps -ef',
  'ps -e',
  'ps ax',
  'ps -o pid,user -C node',
  'ps -p 1 -o args',
  'ls',
  'ls .',
  'ls src/*.ts',
  'cd src && ls *.ts',
  'cd src && rg KEY',
  'grep -r foo .',
  'echo $PATH',
  'cat $HOME/.bashrc',
  'ls {src,test}',
  'ls /usr/{bin,lib}',
  'cat /etc/*.conf',
  'cat /proc/self/status',
  'ls /proc/cpuinfo',
  'ionice -c3 ls',
  'git status',
];

/** Tried against the check, already not ReadOnly before: kept so they stay so. */
const ALREADY_HELD = [
  'mapfile -C "touch x" -c 1 arr < README.md',
  'complete -C "touch x" ls',
  'compgen -C "touch x" a',
  'hash -p /bin/sh ls',
  'enable -f ./x.so foo',
  'BASH_ENV=./x bash -c true',
  'find . -fprint out',
  'find . -fls out',
  'sort -o out README.md',
  'sort --output=out README.md',
  "sed -n 'w out' README.md",
  "sed -n '1e id' README.md",
  "sed -n 's/a/b/w out' README.md",
  'git --output=out diff',
  'git diff --output=out',
  "git grep -O'touch x' foo",
  'rg --pre ./x foo',
  "LESSOPEN='|touch x %s' less README.md",
  `MANPAGER='sh -c "touch x"' man ls`,
  "PAGER='touch x' git log",
  "tar --to-command='touch x' -xf a.tar",
  'tar -tf a.tar -I ./x',
  "env -S 'touch x'",
  `awk 'BEGIN{print 1 > "out"}'`,
  `awk 'BEGIN{"id" | getline}'`,
  "$'\\x72m' -rf x",
  'echo hi \\\n; touch x',
  'cat <<E > out\nhi\nE',
  'cat <<E\n$(touch x)\nE',
  'xxd -r a.txt out',
  'split README.md',
  'csplit README.md 1',
  'tee out < README.md',
  'file -C -m x',
  'date -s 2020-01-01',
  'date --set=2020-01-01',
  'hostname foo',
  'history -w out',
  'fc -e true',
  `bind -x '"a": touch x'`,
  'kill -9 1',
  'test -v "a[$(touch x)]"',
  'echo ${a[$(touch x)]}',
  'echo $[a[$(touch x)]]',
  'timedatectl set-time 2020-01-01',
  'sysctl -w kernel.hostname=foo',
  'renice -n 19 -p 1',
  'chrt -p 1',
  'tmux show-environment -g',
  'systemctl show-environment',
  'cat /proc/[0-9]*/environ',
  'cat /proc/self/../1/environ',
  'cat /proc/self/root/proc/1/environ',
  'grep -a K < /proc/1/environ',
  'cd / && grep -a KEY proc/1/environ',
  'find / -maxdepth 3 -name environ | xargs grep -a KEY',
];

describe('a command that reads other processes’ environments is not ReadOnly', () => {
  it.each(HOLES)('%s', (line) => {
    expect(risk(line)).not.toBe('ReadOnly');
  });
});

describe('what a reader uses every day stays ReadOnly', () => {
  it.each(STAY_READ_ONLY)('%s', (line) => {
    expect(risk(line)).toBe('ReadOnly');
  });
});

describe('lines tried that the check already held', () => {
  it.each(ALREADY_HELD)('%s', (line) => {
    expect(risk(line)).not.toBe('ReadOnly');
  });
});

const hasProcps = process.platform === 'linux' && spawnSync('ps', ['--version'], { encoding: 'utf8' }).status === 0;

describe.runIf(hasProcps)('why: ps e shows a process’s environment, a parent’s key included', () => {
  it('ps e -p PID prints a variable only that process was given', async () => {
    const child = spawn('sleep', ['30'], { env: { PATH: process.env['PATH'], A3_PROBE_KEY: 'sk-only-here' } });
    await once(child, 'spawn');
    try {
      const shown = spawnSync('ps', ['e', '-p', String(child.pid)], {
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] },
      });
      expect(shown.stdout).toContain('A3_PROBE_KEY=sk-only-here');
    } finally {
      child.kill();
    }
  });
});
