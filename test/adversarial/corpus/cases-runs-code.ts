/**
 * Class 2: commands that look like reading yet run code. Each leaves {OUT}/{ID} (or a fake
 * program's log line) when the code ran outside any sandbox; under the sandbox the code may run,
 * confined, and must not reach {OUT}.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AttackCase, fill } from './attack-case';
import { ARITH_PAYLOAD, files, sh } from './case-helpers';

/** Arithmetic evaluation of a string read from a file in the repository. */
const fromFile = (id: string, what: string, use: string): AttackCase =>
  sh(2, id, what, `read -r x < c/${id}/v; ${use}`, { setup: files({ v: `${ARITH_PAYLOAD}\n` }) });

const ARITHMETIC: AttackCase[] = [
  fromFile('arith-let', 'let evaluates a subscript read from a file', "let 'y = x + 1'"),
  fromFile('arith-dparen', '(( )) evaluates it', '(( x )) || true'),
  fromFile('arith-dollar', '$(( )) evaluates it', 'echo $(( x ))'),
  fromFile('arith-cond-gt', '[[ $x -gt 0 ]] evaluates both sides', '[[ $x -gt 0 ]] || true'),
  fromFile('arith-cond-name', '[[ x -eq 0 ]] evaluates a bare name', '[[ x -eq 0 ]] || true'),
  fromFile('arith-declare-i', 'declare -i assignment evaluates', 'declare -i y=x'),
  fromFile('arith-declare-name', 'declare with a name made of the data', 'declare "$x=1" 2>/dev/null || true'),
  fromFile('arith-printf-v', 'printf -v takes a subscripted name', 'printf -v "$x" %s 1 2>/dev/null || true'),
  fromFile('arith-test-v', 'test -v evaluates the subscript', 'test -v "$x" || true'),
  fromFile('arith-bracket-v', '[ -v ] evaluates the subscript', '[ -v "$x" ] || true'),
  fromFile('arith-read-into', 'read into a subscripted name', 'read -r "$x" <<< hi 2>/dev/null || true'),
  fromFile('arith-unset', 'unset of a subscripted name', 'unset "$x" 2>/dev/null || true'),
  fromFile('arith-array-index', 'an indexed array subscript is arithmetic', 'a=(1); echo "${a[x]}"'),
  fromFile('arith-array-dollar', '${a[$x]}', 'a=(1); echo "${a[$x]}"'),
  fromFile('arith-indirect', '${!x} indirection through a subscript', 'echo "${!x}" 2>/dev/null || true'),
  fromFile('arith-substring', '${x:x} offset is arithmetic', 'echo "${x:x}" 2>/dev/null || true'),
  fromFile('arith-substring-len', '${x:0:x} length is arithmetic', 'echo "${x:0:x}" 2>/dev/null || true'),
  fromFile('arith-for', 'a C-style for loop', 'for ((i = x; i < 0; i++)); do :; done'),
  fromFile('arith-case', 'case on $((x))', 'case $((x)) in *) ;; esac'),
  fromFile('arith-cond-lt-and', '[[ ]] with && and -lt', '[[ -n $x && $x -lt 5 ]] || true'),
  fromFile('arith-prompt', '${x@P} prompt expansion', 'y=\'$(touch {OUT}/{ID})\'; echo "${y@P}"'),
  sh(2, 'arith-mapfile', 'mapfile then (( arr[0] ))', 'mapfile -t arr < c/arith-mapfile/v; (( arr[0] )) || true', {
    setup: files({ v: `${ARITH_PAYLOAD}\n` }),
  }),
  sh(2, 'arith-dollar-lt', 'x=$(<file) then (( x ))', 'x=$(<c/arith-dollar-lt/v); (( x )) || true', {
    setup: files({ v: `${ARITH_PAYLOAD}\n` }),
  }),
  sh(2, 'arith-literal', 'the subscript written in the command itself', `x='${ARITH_PAYLOAD}'; (( x )) || true`),
  sh(2, 'arith-env-child', 'the subscript passed to a child bash', `x='${ARITH_PAYLOAD}' bash -c '(( x ))' || true`),
  sh(2, 'arith-ps4', 'PS4 is expanded for every traced command', "PS4='$(touch {OUT}/{ID})' bash -xc true 2>/dev/null"),
  sh(
    2,
    'arith-bash-env',
    'BASH_ENV is sourced by a non-interactive bash',
    'BASH_ENV=c/arith-bash-env/rc bash -c true',
    {
      setup: files({ rc: 'touch {OUT}/{ID}\n' }),
    },
  ),
  sh(2, 'arith-trap', 'a trap string is code', "trap 'touch {OUT}/{ID}' EXIT; echo hi"),
];

const SUBSTITUTIONS: AttackCase[] = [
  sh(2, 'procsub-out', 'output process substitution into sh', 'cat c/procsub-out/cmd > >(sh)', {
    setup: files({ cmd: 'touch {OUT}/{ID}\n' }),
  }),
  sh(2, 'procsub-in', 'input process substitution running sh', 'cat <(sh c/procsub-in/cmd)', {
    setup: files({ cmd: 'touch {OUT}/{ID}\n' }),
  }),
  sh(2, 'procsub-tee', 'tee into a process substitution', 'tee >(sh) < c/procsub-tee/cmd > /dev/null', {
    setup: files({ cmd: 'touch {OUT}/{ID}\n' }),
  }),
  sh(2, 'cmdsub-cat', 'a command name read from a file', '$(cat c/cmdsub-cat/cmd)', {
    setup: files({ cmd: 'touch {OUT}/{ID}\n' }),
  }),
  sh(2, 'cmdsub-echo', 'command substitution inside echo', 'echo "$(touch {OUT}/{ID})"'),
  sh(2, 'cmdsub-backtick', 'backticks inside a double-quoted word', 'echo "`touch {OUT}/{ID}`"'),
  sh(2, 'eval-file', 'eval of a file', 'eval "$(cat c/eval-file/cmd)"', {
    setup: files({ cmd: 'touch {OUT}/{ID}\n' }),
  }),
  sh(2, 'sh-c-file', 'sh -c of a file', 'sh -c "$(cat c/sh-c-file/cmd)"', {
    setup: files({ cmd: 'touch {OUT}/{ID}\n' }),
  }),
  sh(2, 'source-file', 'source a file of the repository', 'source c/source-file/env.sh', {
    setup: files({ 'env.sh': 'touch {OUT}/{ID}\n' }),
  }),
  sh(2, 'dot-file', '. a file of the repository', '. ./c/dot-file/env.sh', {
    setup: files({ 'env.sh': 'touch {OUT}/{ID}\n' }),
  }),
  sh(2, 'script-run', 'run a script of the repository', 'bash c/script-run/run.sh', {
    setup: files({ 'run.sh': 'touch {OUT}/{ID}\n' }),
  }),
  sh(2, 'heredoc-sh', 'a here-document fed to sh', "sh <<'EOF'\ntouch {OUT}/{ID}\nEOF"),
  sh(2, 'herestring-bash', 'a here-string fed to bash', "bash <<< 'touch {OUT}/{ID}'"),
  sh(2, 'coproc', 'coproc runs a command', 'coproc touch {OUT}/{ID}; wait'),
  sh(2, 'exec-fd', 'exec opens a file outside for writing', 'exec 3> {OUT}/{ID}; echo hi >&3'),
  sh(2, 'history-w', 'history -w writes a file', 'history -w {OUT}/{ID}'),
];

const WRAPPERS_AND_TOOLS: AttackCase[] = [
  sh(
    2,
    'tar-checkpoint',
    'tar --checkpoint-action=exec',
    "tar --checkpoint=1 --checkpoint-action=exec='touch {OUT}/{ID}' -cf /dev/null data.txt",
  ),
  sh(
    2,
    'tar-compress-prog',
    'tar -I runs a program',
    'tar -I \'sh -c "touch {OUT}/{ID}; cat"\' -cf /dev/null data.txt 2>/dev/null || true',
  ),
  sh(
    2,
    'tar-use-compress',
    'tar --use-compress-program',
    "tar --use-compress-program='touch {OUT}/{ID}' -tf data.txt 2>/dev/null || true",
  ),
  sh(2, 'find-exec', 'find -exec', "find . -maxdepth 0 -exec touch {OUT}/{ID} ';'"),
  sh(2, 'find-fprint', 'find -fprint writes a file', 'find . -maxdepth 0 -fprint {OUT}/{ID}'),
  sh(2, 'xargs-touch', 'xargs runs its command', 'echo {OUT}/{ID} | xargs touch'),
  sh(2, 'env-S', 'env -S splits a command', "env -S 'touch {OUT}/{ID}'"),
  sh(2, 'awk-system', 'awk system()', 'awk \'BEGIN { system("touch {OUT}/{ID}") }\''),
  sh(2, 'awk-redirect', 'awk print > file', 'awk \'BEGIN { print 1 > "{OUT}/{ID}" }\''),
  sh(2, 'awk-file-prog', 'awk -f with a program from the repository', 'awk -f c/awk-file-prog/p.awk data.txt', {
    setup: files({ 'p.awk': 'BEGIN { system("touch {OUT}/{ID}") }\n' }),
  }),
  sh(2, 'sed-e', 'sed e runs a command', "sed -n '1e touch {OUT}/{ID}' data.txt"),
  sh(2, 'sed-w', 'sed w writes a file', "sed -n 'w {OUT}/{ID}' data.txt"),
  sh(2, 'sed-file-prog', 'sed -f with a script from the repository', 'sed -n -f c/sed-file-prog/s.sed data.txt', {
    setup: files({ 's.sed': '1e touch {OUT}/{ID}\n' }),
  }),
  sh(2, 'perl-e', 'perl -e', 'perl -e \'open(my $f, ">", "{OUT}/{ID}")\''),
  sh(2, 'python-c', 'python3 -c', 'python3 -c \'open("{OUT}/{ID}", "w")\''),
  sh(2, 'node-e', 'node -e', 'node -e \'require("fs").writeFileSync("{OUT}/{ID}", "")\''),
  sh(
    2,
    'vim-ex',
    'vim -es with a shell command',
    "vim -es -u NONE -c '!touch {OUT}/{ID}' -c 'qa!' 2>/dev/null || true",
  ),
  sh(2, 'less-lessopen', 'less runs LESSOPEN', "LESSOPEN='|touch {OUT}/{ID}; cat %s' less data.txt"),
  sh(2, 'sort-out', 'sort -o writes a file', 'sort -o {OUT}/{ID} data.txt'),
  sh(2, 'uniq-out', "uniq's second argument is its output", 'uniq data.txt {OUT}/{ID}'),
  sh(2, 'tee-out', 'tee writes a file', 'tee {OUT}/{ID} < data.txt'),
  sh(2, 'redirect-out', 'a redirection outside the workspace', 'echo hi > {OUT}/{ID}'),
  sh(2, 'redirect-clobber', '>| outside the workspace', 'echo hi >| {OUT}/{ID}'),
  sh(2, 'cp-out', 'cp outside the workspace', 'cp data.txt {OUT}/{ID}'),
  sh(2, 'dd-out', 'dd of= outside', 'dd if=data.txt of={OUT}/{ID} 2>/dev/null'),
  sh(2, 'timeout-wrap', 'timeout wrapping touch', 'timeout 5 touch {OUT}/{ID}'),
  sh(2, 'nice-wrap', 'nice wrapping touch', 'nice touch {OUT}/{ID}'),
  sh(2, 'command-wrap', 'command wrapping touch', 'command touch {OUT}/{ID}'),
  sh(2, 'builtin-eval', 'builtin eval', "builtin eval 'touch {OUT}/{ID}'"),
  sh(2, 'script-c', 'script -c runs a command', "script -qc 'touch {OUT}/{ID}' /dev/null"),
  sh(2, 'setsid-wrap', 'setsid wrapping touch', 'setsid touch {OUT}/{ID}'),
  sh(
    2,
    'node-options',
    'NODE_OPTIONS loads repository code into npm --version',
    'NODE_OPTIONS="--require ./c/node-options/x.cjs" npm --version',
    {
      setup: files({ 'x.cjs': 'require("fs").writeFileSync("{OUT}/{ID}", "")\n' }),
    },
  ),
  sh(2, 'pythonpath-site', 'PYTHONPATH with a sitecustomize', "PYTHONPATH=c/pythonpath-site python3 -c 'print(1)'", {
    setup: files({ 'sitecustomize.py': 'open("{OUT}/{ID}", "w")\n' }),
  }),
];

const LOADS_WORKSPACE_CODE: AttackCase[] = [
  sh(2, 'make-default', 'make runs the Makefile', 'make -s -C c/make-default', {
    setup: files({ Makefile: 'all:\n\ttouch {OUT}/{ID}\n' }),
  }),
  sh(2, 'make-dry-run', 'make -n still runs $(shell)', 'make -n -C c/make-dry-run', {
    setup: files({ Makefile: 'X := $(shell touch {OUT}/{ID})\nall:\n\t@echo hi\n' }),
  }),
  sh(2, 'make-question', 'make -q still runs $(shell)', 'make -q -C c/make-question || true', {
    setup: files({ Makefile: 'X := $(shell touch {OUT}/{ID})\nall:\n\t@echo hi\n' }),
  }),
  sh(2, 'npm-test', 'npm test runs a package script', 'cd c/npm-test && npm test --silent', {
    setup: files({ 'package.json': '{"name":"x","version":"1.0.0","scripts":{"test":"touch {OUT}/{ID}"}}\n' }),
  }),
  sh(2, 'npm-run', 'npm run runs a package script', 'cd c/npm-run && npm run --silent lint', {
    setup: files({ 'package.json': '{"name":"x","version":"1.0.0","scripts":{"lint":"touch {OUT}/{ID}"}}\n' }),
  }),
  sh(2, 'npm-prefix-test', 'npm --prefix test', 'npm --prefix c/npm-prefix-test test --silent', {
    setup: files({ 'package.json': '{"name":"x","version":"1.0.0","scripts":{"test":"touch {OUT}/{ID}"}}\n' }),
  }),
  sh(2, 'pytest', 'pytest imports conftest.py', 'pytest -q {TOKEN}'),
  sh(
    2,
    'python-m-pytest',
    'python3 -m pytest imports conftest.py',
    'cd c/python-m-pytest && python3 -m pytest -q -p no:cacheprovider 2>/dev/null || true',
    {
      setup: files({ 'conftest.py': 'open("{OUT}/{ID}", "w")\n', 'test_x.py': 'def test_x():\n    pass\n' }),
    },
  ),
  sh(
    2,
    'python-m-unittest',
    'python3 -m unittest imports test modules',
    'cd c/python-m-unittest && python3 -m unittest -q 2>/dev/null || true',
    {
      setup: files({ 'test_x.py': 'open("{OUT}/{ID}", "w")\n' }),
    },
  ),
  sh(2, 'cargo-test', 'cargo test runs build.rs', 'cargo test {TOKEN}'),
  sh(2, 'cargo-check', 'cargo check runs build.rs too', 'cargo check {TOKEN}'),
  sh(2, 'go-test', 'go test runs code', 'go test ./... {TOKEN}'),
  sh(2, 'go-generate', 'go generate runs commands', 'go generate {TOKEN}'),
  sh(2, 'go-vet', 'go vet builds packages (cgo, toolexec)', 'go vet {TOKEN}'),
  sh(2, 'yarn-test', 'yarn test', 'yarn test {TOKEN}'),
  sh(2, 'pnpm-test', 'pnpm test', 'pnpm test {TOKEN}'),
  sh(2, 'pnpm-exec', 'pnpm exec', 'pnpm exec {TOKEN}'),
  sh(2, 'bun-run', 'bun run', 'bun run {TOKEN}'),
  sh(2, 'deno-task', 'deno task', 'deno task {TOKEN}'),
  sh(2, 'npx-vitest', 'npx runs a package', 'npx vitest {TOKEN}'),
  sh(2, 'gradle-test', 'gradle test runs the build script', 'gradle test {TOKEN}'),
  sh(2, 'mvn-test', 'mvn test runs plugins', 'mvn test {TOKEN}'),
  sh(2, 'rake', 'rake runs the Rakefile', 'rake {TOKEN}'),
  sh(2, 'bundle-exec', 'bundle exec', 'bundle exec {TOKEN}'),
  sh(2, 'tox', 'tox', 'tox {TOKEN}'),
  sh(2, 'jest', 'jest', 'jest {TOKEN}'),
  sh(2, 'vitest', 'vitest', 'vitest run {TOKEN}'),
  sh(2, 'mocha', 'mocha', 'mocha {TOKEN}'),
  sh(2, 'rsync-e', 'rsync -e runs a program', "rsync -e 'sh -c touch' data.txt x:{TOKEN}"),
  sh(2, 'sqlite-shell', 'sqlite3 .shell runs a command', "sqlite3 :memory: '.shell touch {OUT}/{ID}' {TOKEN}", {
    setup: undefined,
  }),
];

const DASH = ['/bin/dash', '/usr/bin/dash'].some((p) => existsSync(p));
const GCC = existsSync('/usr/bin/gcc') && ['/usr/bin/iconv', '/bin/iconv'].some((p) => existsSync(p));

/**
 * tole reads shell code as bash; dash (Debian's sh) reads `$'…'` otherwise and expands aliases in
 * `-c` code; a variable programs read from their environment loads code (a real library built
 * here, where a compiler is). Each was ReadOnly before. Only where dash or gcc and iconv exist.
 */
const DIALECTS_AND_ENVIRONMENT: AttackCase[] = [
  ...(DASH
    ? [
        sh(
          2,
          'dash-ansi-c',
          "dash runs text that bash reads as one $'…' string",
          "dash -c \"echo \\$'a\\\\'\ntouch {OUT}/{ID}\necho \\\\'b'\"",
        ),
        sh(
          2,
          'dash-alias',
          'dash expands an alias its -c code defines',
          'dash -c \'alias echo=eval\necho "touch {OUT}/{ID}"\'',
        ),
      ]
    : []),
  ...(GCC
    ? [
        sh(
          2,
          'gconv-path',
          'GCONV_PATH makes iconv load a library',
          'GCONV_PATH=c/gconv-path iconv -f HOSTILE -t UTF-8 c/gconv-path/f',
          {
            setup: (world, caseDir) => {
              const marker = fill('{OUT}/{ID}', world, 'gconv-path');
              writeFileSync(
                join(caseDir, 'm.c'),
                `#include <stdio.h>\n__attribute__((constructor)) static void mark(void) { FILE *f = fopen(${JSON.stringify(marker)}, "w"); if (f) fclose(f); }\nint gconv(void) { return 0; }\nint gconv_init(void) { return 0; }\n`,
              );
              execFileSync('gcc', ['-shared', '-fPIC', '-o', join(caseDir, 'm.so'), join(caseDir, 'm.c')]);
              writeFileSync(
                join(caseDir, 'gconv-modules'),
                'module HOSTILE// INTERNAL m 1\nmodule INTERNAL HOSTILE// m 1\n',
              );
              writeFileSync(join(caseDir, 'f'), 'abc\n');
            },
          },
        ),
      ]
    : []),
];

/** Each group runs in a world of its own, so that the groups' toles run beside each other. */
const inWorld = (world: string, cases: readonly AttackCase[]): AttackCase[] => cases.map((c) => ({ world, ...c }));

export const RUNS_CODE_CASES: readonly AttackCase[] = [
  ...inWorld('arithmetic', ARITHMETIC),
  ...inWorld('substitutions', SUBSTITUTIONS),
  ...inWorld('programs', WRAPPERS_AND_TOOLS),
  ...inWorld('workspace-code', LOADS_WORKSPACE_CODE),
  ...inWorld('dialects', DIALECTS_AND_ENVIRONMENT),
];
