/**
 * Without a sandbox a ReadOnly line runs unconfined with no key. Four ways a line the check took
 * for inert ran code or acted anyway (each HOLES line was ReadOnly before):
 * - a variable programs read from their environment: `GCONV_PATH=. iconv` loads a library from
 *   the workspace (shown below with a real iconv), `JAVA_TOOL_OPTIONS` an agent, `LUA_INIT` runs
 *   code. The check listed code-loading names; now only names known to be inert (locale, time
 *   zone, display) may be set, however the line sets them (`export`, `read`, `printf -v`, `for`).
 * - `alias`: sh and dash expand aliases in `-c` code (bash in POSIX mode or with
 *   expand_aliases), so `alias echo=eval` then `echo 'cmd'` runs cmd (shown with dash).
 * - another shell's reading of the code: tole parses bash, and dash has no `$'…'`, so text bash
 *   keeps inside one string runs as commands in `sh -c` where sh is dash (shown with dash); zsh,
 *   ksh, mksh and fish have syntax of their own.
 * - a device: opening `/dev/watchdog` arms a reboot, `/dev/pts/N` takes the keys typed to tole.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../src/core/approval/command-risk';
import { tempDirForTest } from '../support/after-the-test';

const classified = (line: string) => {
  const got = classifyCommand(line);
  return `${got.risk}: ${got.reason}`;
};

/** dash's `-c` string that bash reads as one `$'…'` word, and the line a model sends to run it. */
const DASH_HIDDEN = "echo $'a\\'\ntouch MARK\necho \\'b'";
const DASH_HIDDEN_LINE = `sh -c "echo \\$'a\\\\'\ntouch MARK\necho \\\\'b'"`;

const HOLES = [
  // Environment variables that load code or move configs.
  'GCONV_PATH=. iconv -f HOSTILE -t UTF-8 f',
  'env GCONV_PATH=. iconv -f x -t y f',
  'export GCONV_PATH=.; iconv -f x -t y f',
  'declare -x GCONV_PATH=.; iconv -f x -t y f',
  'GCONV_PATH=.; export GCONV_PATH; iconv -f x -t y f',
  'set -a; GCONV_PATH=.; iconv -f x -t y f',
  'read GCONV_PATH < f; export GCONV_PATH; iconv -f x -t y f',
  'printf -v GCONV_PATH .; export GCONV_PATH; iconv -f x -t y f',
  'for GCONV_PATH in .; do export GCONV_PATH; iconv -f x -t y f; done',
  'echo ${GCONV_PATH:=.}; export GCONV_PATH; iconv -f x -t y f',
  'JAVA_TOOL_OPTIONS=-javaagent:x.jar java -version',
  'LUA_INIT=\'os.execute("touch p")\' lua -v',
  'PYTHONHOME=. python3 -V',
  'XDG_CONFIG_HOME=. git log',
  'HOME=. git log',
  'LOCPATH=. ls',
  'NLSPATH=./x ls',
  'TZDIR=. date',
  'MAGIC=./x file f',
  'GLOBIGNORE=x ls *',
  'INPUTRC=./x bash -c ls',
  'BASH_XTRACEFD=3 bash -c ls',
  'SSL_CERT_FILE=./x ls',
  'no_proxy=* ls',
  // Aliases.
  "shopt -s expand_aliases\nalias echo=eval\necho 'touch p'",
  'sh -c \'alias echo=eval\necho "touch p"\'',
  'dash -c \'alias echo=eval\necho "touch p"\'',
  'bash --posix -c \'alias echo=eval\necho "touch p"\'',
  'bash -o posix -c \'alias echo=eval\necho "touch p"\'',
  'POSIXLY_CORRECT=1 bash -c \'alias echo=eval\necho "touch p"\'',
  `bash -O expand_aliases -c $'alias echo=eval\\necho "touch p"'`,
  'bash -c \'shopt -s expand_aliases\nalias echo=eval\necho "touch p"\'',
  "sh -c 'alias echo=command\necho touch p'",
  "sh -c 'alias e=eval'",
  'sh -c \'alias cat="cat /pr"\ncat oc/1/environ\'',
  // Other shells' reading.
  DASH_HIDDEN_LINE,
  DASH_HIDDEN_LINE.replace('sh -c', 'dash -c'),
  'sh -c "echo \\$\\"a\ntouch p\n\\""',
  'zsh -c ls',
  "zsh -c 'echo $x'",
  "zsh -c 'ls $~x'",
  'ksh -c ls',
  'mksh -c ls',
  'fish -c ls',
  'busybox ash -c \'alias echo=eval\necho "touch p"\'',
  // Devices.
  'cat /dev/pts/0',
  'head -c 10 /dev/pts/0',
  'cat < /dev/pts/0',
  'read x < /dev/pts/0',
  'cat /dev/watchdog',
  'cat /dev/tty1',
  'cat /dev/console',
  'cat /dev/input/event0',
  'cat /dev/mem',
  'cat /dev/kmsg',
  'cat /dev/st0',
  'cat /dev/*',
  'cat /./dev/../dev/watchdog',
  'cat ../../../../../../dev/watchdog',
  'cd /dev && cat watchdog',
  'grep -r x /dev',
  'x=/dev/watchdog; cat $x',
  'wc --files0-from=/dev/watchdog',
];

const STAYS_READ_ONLY = [
  'LC_ALL=C sort f',
  'LANG=C ls',
  'LC_COLLATE=C ls',
  'TZ=UTC date',
  'COLUMNS=80 ls',
  'NO_COLOR=1 ls',
  'x=src; ls $x',
  'd=$HOME/src; ls $d',
  'export foo=bar',
  'x=1',
  'declare -p HOME',
  'export -p',
  'read -r line < f; echo "$line"',
  'while read -r REPLY; do echo "$REPLY"; done < f',
  'alias',
  'alias ls',
  "sh -c 'ls src'",
  "dash -c 'cat f | wc -l'",
  "bash -c 'echo $((1 + 2))'",
  'cat /dev/null',
  'echo hi > /dev/null',
  'head -c 8 /dev/urandom',
  'ls /dev/fd',
  'cat /dev/stdin',
  'echo hi >&2',
];

/** Tried against the check, already not ReadOnly before this change. */
const ALREADY_HELD = [
  "sh -c '((reboot))'",
  'dd if=/dev/pts/0 bs=1 count=1',
  'cat /d?v/watchdog',
  'echo ${ touch p; }',
  'echo ${| touch p; }',
  'echo "${ touch p; }"',
  "ksh -c 'echo ${ touch p; }'",
  "zsh -c 'echo *(e:touch\\ p:)'",
  "zsh -c 'ls =(touch p)'",
  "zsh -c 'echo ${(e)x}'",
  "fish -c \"echo 'a\\'' (touch p) 'b\\''\"",
  'read x < f; echo $(( x ))',
  'read x < f; [[ $x -eq 1 ]]',
  'read x < f; declare -n r=$x; echo $r',
  "declare -n r='a[$(touch p)]'; echo $r",
  "alias ls='touch p'; ls",
  'LD_PRELOAD=./x.so ls',
  'env LD_PRELOAD=./x.so ls',
  'BASH_ENV=./x bash -c ls',
  'ENV=./x sh -i -c ls',
  "PROMPT_COMMAND='touch p' bash -c ls",
  "PS4='$(touch p)' bash -xc ls",
  "BASH_LOADABLES_PATH=. bash -c 'enable -f x x'",
  'PATH=.:$PATH ls',
  'echo hi >/dev/pts/0',
  'cat /proc/1/environ',
];

/**
 * Left ReadOnly on purpose: real bash (5.2) shown not to evaluate a value `a[$(cmd)]` read from a
 * file in these (integer checks of `[`/`test`, printf's `%d`, `export`/`readonly` of a bad name,
 * `exit`, `ulimit`, `kill -l`, `shift`, `type`, `hash -t`, `cd`); bash's `[[ -eq ]]`, `(( ))`,
 * `$(( ))` do, and the check already catches those.
 */
const VALUE_IN_BUILTINS_STAYS = [
  'read x < f; [ "$x" -eq 1 ]',
  'read x < f; test "$x" -lt 1',
  'read x < f; export "$x"',
  'read x < f; readonly "$x"',
  'read x < f; printf \'%d\' "$x"',
  'read x < f; shift x',
  'read x < f; echo ${x@A}',
  'read x < f; [[ ${x} == y ]]',
  'read x < f; b=1; b+=x',
];

describe('lines tried that were already not ReadOnly', () => {
  for (const line of ALREADY_HELD) {
    it(line, () => {
      expect(classified(line)).not.toMatch(/^ReadOnly/);
    });
  }
});

describe('a value from a file in builtins bash does not evaluate it in stays ReadOnly', () => {
  for (const line of VALUE_IN_BUILTINS_STAYS) {
    it(line, () => {
      expect(classified(line)).toMatch(/^ReadOnly/);
    });
  }
});

describe('lines that set, alias, hand to another shell or open a device are not ReadOnly', () => {
  for (const line of HOLES) {
    it(line, () => {
      expect(classified(line)).not.toMatch(/^ReadOnly/);
    });
  }
});

describe('everyday lines stay ReadOnly', () => {
  for (const line of STAYS_READ_ONLY) {
    it(line, () => {
      expect(classified(line)).toMatch(/^ReadOnly/);
    });
  }
});

const dash = ['/bin/dash', '/usr/bin/dash'].find((p) => existsSync(p));
const gcc = ['/usr/bin/gcc', '/usr/bin/cc'].find((p) => existsSync(p));
const iconv = ['/usr/bin/iconv', '/bin/iconv'].find((p) => existsSync(p));

function run(program: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return spawnSync(program, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', ...env },
  });
}

describe('the shells and programs really do what the check now assumes', () => {
  it.skipIf(!dash)("dash runs text that bash reads as one $'…' string", () => {
    const dir = tempDirForTest('tole-dialect-');
    run(dash!, ['-c', DASH_HIDDEN], dir);
    expect(existsSync(path.join(dir, 'MARK'))).toBe(true);
    const asBash = tempDirForTest('tole-dialect-bash-');
    run('bash', ['-c', DASH_HIDDEN], asBash);
    expect(existsSync(path.join(asBash, 'MARK'))).toBe(false);
    // What the model sends is that string, given to sh -c.
    const line = DASH_HIDDEN_LINE;
    const echoed = run('bash', ['-c', `printf %s ${line.slice('sh -c '.length)}`], dir);
    expect(echoed.stdout).toBe(DASH_HIDDEN);
  });

  it.skipIf(!dash)('dash expands an alias its -c code defines', () => {
    const dir = tempDirForTest('tole-alias-');
    run(dash!, ['-c', "alias echo=eval\necho 'touch MARK'"], dir);
    expect(existsSync(path.join(dir, 'MARK'))).toBe(true);
  });

  it.skipIf(!gcc || !iconv)('GCONV_PATH makes iconv load a library from the workspace', () => {
    const dir = tempDirForTest('tole-gconv-');
    writeFileSync(
      path.join(dir, 'm.c'),
      [
        '#include <stdio.h>',
        '__attribute__((constructor)) static void mark(void) { FILE *f = fopen("MARK", "w"); if (f) fclose(f); }',
        'int gconv(void) { return 0; }',
        'int gconv_init(void) { return 0; }',
        '',
      ].join('\n'),
    );
    expect(run(gcc!, ['-shared', '-fPIC', '-o', 'm.so', 'm.c'], dir).status).toBe(0);
    writeFileSync(path.join(dir, 'gconv-modules'), 'module HOSTILE// INTERNAL m 1\nmodule INTERNAL HOSTILE// m 1\n');
    writeFileSync(path.join(dir, 'f'), 'abc\n');
    run(iconv!, ['-f', 'HOSTILE', '-t', 'UTF-8', 'f'], dir);
    expect(existsSync(path.join(dir, 'MARK'))).toBe(false);
    run(iconv!, ['-f', 'HOSTILE', '-t', 'UTF-8', 'f'], dir, { GCONV_PATH: '.' });
    expect(existsSync(path.join(dir, 'MARK'))).toBe(true);
    expect(readFileSync(path.join(dir, 'MARK'), 'utf8')).toBe('');
  });
});
