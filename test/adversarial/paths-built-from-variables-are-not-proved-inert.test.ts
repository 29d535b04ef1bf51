/**
 * Without a sandbox a ReadOnly line runs unconfined with no key, and tole's own process holds the
 * provider's key (/proc/$PPID/environ from the shell). The read-only check read each word's own
 * text, so a path made of variables (`a=/pr; b=oc/1/environ; cat $a$b`), of a value read from a
 * file (`read p < f; cat $p`) or of one tole never saw set (`cat $x`, `cat $1`, `cat ~-/environ`)
 * was ReadOnly. Now a value tole knows (a literal assignment that surely ran, a `for` list, the
 * user's own HOME/PWD/TMPDIR/USER the line does not set) is put in and the path checked; any other
 * is only known when it runs, and the line is at least Write. Each HOLES line was ReadOnly before.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../src/core/approval/command-risk';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from '../core/tools/temp-workspace';

const classified = (line: string) => {
  const got = classifyCommand(line);
  return `${got.risk}: ${got.reason}`;
};

const HOLES = [
  // Known values joined into /proc.
  'a=/pr; b=oc/1/environ; cat $a$b',
  'a=/pr b=oc/1/environ; cat $a$b',
  'a=/pr; b=${a}oc/1/environ; cat $b',
  "x='a /proc/1/environ'; cat $x",
  "x=$'/pr'; cat ${x}oc/1/environ",
  'a=/pr; cat "$a"oc/1/environ',
  'a=/pr; HOME=${a}oc/1; cat ~/environ',
  'a=/pr; HOME=${a}oc/1; cat $HOME/environ',
  'for f in /pr; do cat ${f}oc/1/environ; done',
  'for f in a /pr; do cat ${f}oc/1/environ; done',
  // Values only known when it runs.
  'read p < f; cat $p',
  'cat $x',
  'cat "$p"',
  'cat ${x}',
  'cat $OLDPWD',
  'cat ~-/environ',
  'cat ~+/environ',
  'cat ~1/environ',
  'cat $1',
  'cat $@',
  'cat "$@"',
  'cat $*',
  'cat $_',
  'cat ${x/a/b}',
  'cat ${x#a}',
  'cat ${x%a}',
  'cat ${x:-/etc/hosts}',
  'cat ${x^^}',
  'cat ${a[0]}',
  'cat ${a[@]}',
  'cat < $x',
  'grep -f $x README.md',
  'grep $x README.md',
  'set -- /pr; cat ${1}oc/1/environ',
  'set -- a /pr; shift; cat ${1}oc/1/environ',
  'x=$p; cat $x',
  'x=~-; cat $x/environ',
  'x=~+; cat $x',
  'HOME=/tmp cat ~/x',
  'read a < f; an=src; cat $a"n"',
  // Set where it may not run, or run again, or in another shell.
  'x=src; for i in 1 2; do cat $x; x=/pr; done',
  'x=src; while true; do cat ${x}oc/1/environ; x=/pr; done',
  'false && x=src; cat $x',
  'true || x=src; cat $x',
  'if false; then x=src; fi; cat $x',
  'if false; then :; else x=src; fi; cat $x',
  'time while false; do x=src; done; cat $x',
  'x=src & cat $x',
  'x=src | cat $x',
  'x=/pr; (x=src); cat ${x}oc/1/environ',
  'x=/pr; { x=src; }; cat ${x}oc/1/environ',
  'x=(/proc/1/environ); cat $x',
  'x+=src; cat $x',
  // Set some other way.
  "x=src; eval 'x=/pr'; cat ${x}oc/1/environ",
  "command eval 'x=/pr'; cat ${x}oc/1/environ",
  "x=src; trap 'x=/pr' DEBUG; cat ${x}oc/1/environ",
  'printf -v x %s /pr; cat ${x}oc/1/environ',
  'x=src; read x < f; cat $x',
  'builtin read x < f; cat $x',
  'x=src; unset x; cat $x',
  'getopts a: x; cat $x',
  'wait -n -p x; cat $x',
  'shopt -s nullglob; for f in *.none; do :; done; cat $f',
  'for f in $x; do cat $f; done',
  'for f in "$@"; do cat "$f"; done',
  'for f; do cat $f; done',
  'for f in src; do cat $f; f=/pr; done',
  'for f in src; do :; done; f=/pr; cat ${f}oc/1/environ',
  // A string run by another shell knows nothing of the line's values.
  "x=src; bash -c 'cat $x'",
  `bash -c 'cat "$1"' _ /pr`,
];

const STAY_READ_ONLY = [
  'cat $HOME/.bashrc',
  'cat ~/.bashrc',
  'cat "${HOME}/.profile"',
  'cat < "$HOME/.bashrc"',
  'ls "$TMPDIR"',
  'ls /home/$USER',
  'x=$HOME; cat $x/.bashrc',
  'd=$HOME/src; ls $d',
  'for f in *.ts; do wc -l "$f"; done',
  'for f in src/*.ts; do cat "$f"; done',
  'x=src; ls $x',
  'x=src; ls "$x"/a.ts',
  '! x=src; cat $x',
  'echo $x',
  `printf '%s\\n' "$x"`,
  '[ -f "$x" ] && echo yes',
  '[[ -n $x ]]',
  'export foo=$x',
  'cat <<< $x',
  '(( 1 + 2 ))',
  'env',
  'printenv',
  'export -p',
  'declare -p',
  'set',
];

/** Tried, already not ReadOnly before (another part of the check holds them). */
const ALREADY_HELD = [
  'x=src; IFS=r; cat $x',
  'x=a/proc/1/environ; IFS=a; cat $x',
  'x=src; x+=/../../proc/1/environ; cat $x',
  'x=src; declare -n r=x; r=/pr; cat ${x}oc/1/environ',
  'x=src; : ${x:=/pr}; cat ${x}oc/1/environ',
  'x=src; f() { x=/pr; }; f; cat ${x}oc/1/environ',
  'f() { cat ${x}oc/1/environ; }; x=/pr; f',
  'mapfile -t a < f; cat ${a[0]}',
  'exec {x}>f; cat /proc/1/fd/$x',
  'cd /; cat $PWD/proc/1/environ',
  'pushd /proc/1; cat $PWD/environ',
  'cd - && cat $PWD/environ',
  'cat $HOME/../../proc/1/environ',
  'cat $HOME/../../pro?/1/environ',
  'x=/pro?/1/environ; cat "$x"',
  "cat $'\\x2fpr'oc/1/environ",
  'x=$(cat f); cat $x',
  "sh -c 'for i in 1 2; do cat $HOME/environ; HOME=/proc/1; done'",
  'x=src; source ./f; cat $x',
  'select x in a; do cat $x; done',
  'cat ${!x}',
];

describe('a path built from variables is not taken for inert', () => {
  it.each(HOLES)('%s', (line) => {
    expect(classified(line)).not.toMatch(/^ReadOnly/);
  });

  it('says why: the value is only known when it runs, or the path it makes', () => {
    expect(classified('read p < f; cat $p')).toBe(
      "Write: `$p` holds a value only known when it runs, which may name another process's environment under /proc",
    );
    expect(classified('a=/pr; b=oc/1/environ; cat $a$b')).toMatch(/^Write: `\$a\$b` may reach another process/);
  });
});

describe('values tole knows keep everyday lines ReadOnly', () => {
  it.each(STAY_READ_ONLY)('%s', (line) => {
    expect(classified(line)).toMatch(/^ReadOnly/);
  });
});

describe('lines tried that the check already held', () => {
  it.each(ALREADY_HELD)('%s', (line) => {
    expect(classified(line)).not.toMatch(/^ReadOnly/);
  });
});

/** What bash makes of these lines, with `echo` in place of the read: the values the check assumes. */
describe('why: bash builds the path the check now sees', () => {
  const run = (line: string) => spawnSync('bash', ['-c', line], { encoding: 'utf8', env: {} }).stdout;

  it('joins known parts, splits on blanks and an IFS, and keeps a subshell’s value to itself', () => {
    expect(run('a=/pr; b=oc/1/environ; echo $a$b')).toBe('/proc/1/environ\n');
    expect(run('x=a/proc/1/environ; IFS=a; printf "%s\\n" $x')).toBe('\n/proc/1/environ\n');
    expect(run('x=/pr; (x=src); echo $x')).toBe('/pr\n');
    expect(run('read a <<< /proc/1/enviro; an=src; echo $a"n"')).toBe('/proc/1/environ\n');
  });

  it('an assignment after && or inside a block may not have run', () => {
    expect(run('false && x=src; echo "[$x]"')).toBe('[]\n');
    expect(run('if false; then x=src; fi; echo "[$x]"')).toBe('[]\n');
    expect(run('time while false; do x=src; done 2>/dev/null; echo "[$x]"')).toBe('[]\n');
  });
});

describe('the environment a bash call prints is not tole’s', () => {
  it('env, printenv, export -p, declare -p and set show no provider key', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root });
    const before = process.env['OPENAI_API_KEY'];
    process.env['OPENAI_API_KEY'] = 'sk-vars-probe-key';
    try {
      const out = await bash.execute(
        { command: 'env; printenv; export -p; declare -p; set; echo "[$OPENAI_API_KEY]"' },
        { ...ws.ctx, keypress: true },
      );
      expect(out.content).toContain('[]');
      expect(out.content).toContain('PATH=');
      expect(out.content).not.toContain('sk-vars-probe-key');
    } finally {
      if (before === undefined) delete process.env['OPENAI_API_KEY'];
      else process.env['OPENAI_API_KEY'] = before;
    }
  });
});
