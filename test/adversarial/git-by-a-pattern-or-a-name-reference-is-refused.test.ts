/**
 * A git run by a path pattern the shell expands (`/usr/bin/g[i]t`, `./gi?`, `/usr/bin/gi{t,}`) or
 * found through a PATH set by another name (`declare -n p=PATH; p=/usr/bin`), or run through an open
 * file (`exec 9</usr/bin/git; /dev/fd/9 diff`) is the real git, not tole's: unconfined, a
 * repository's drivers run there unvetted. The command check reads each from the text, as it reads
 * `/usr/bin/git` and `PATH=/usr/bin`: a key runs none unconfined where there is no sandbox, and none
 * hides behind a warning a key may accept (ssh, a login shell).
 * Also the forms tried against the warning that were already refused, kept as a corpus.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isReachDrop, keyMayAccept } from '../../src/core/approval/unconfined-vetting';
import { guardDrops } from '../../src/core/git-guard-drops';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { tempWorkspace } from '../core/tools/temp-workspace';

const PATH = process.env['PATH'] ?? '/usr/bin:/bin';
/** Where the real git is installed: the patterns below name it there. */
const gitDir = path.dirname(execFileSync('sh', ['-c', 'command -v git'], { env: { PATH }, encoding: 'utf8' }).trim());

/** The command makes a repository whose textconv touches `mark`, then runs a git in it. */
const madeRepository = (mark: string): string =>
  'git init -q evil && cd evil && echo one > f.x && echo "*.x diff=evil" > .gitattributes && git add -A && ' +
  'git -c user.email=t@t -c user.name=t commit -qm 1 && echo two >> f.x && ' +
  `git config diff.evil.textconv "sh -c 'touch ${mark}; cat \\"\\$0\\"'" && `;

const UNSPELLED = [
  `${gitDir}/g[i]t diff`,
  `${gitDir}/gi[t] diff`,
  `{${gitDir}/git,diff}`,
  `cd ${gitDir} && ./g[i]t -C - diff`,
  `declare -n p=PATH; p=${gitDir}; git diff`,
  `f(){ local -n q=$1; q=${gitDir}; }; f PATH; git diff`,
  `exec 9<${gitDir}/git; /dev/fd/9 diff`,
  `exec {fd}<${gitDir}/git; /proc/self/fd/$fd diff`,
  `/dev/stdin diff < ${gitDir}/git`,
];

describe('git by a pattern, a PATH set by another name or an open file', () => {
  it.each(UNSPELLED)('%s: a finding the key may not accept', (form) => {
    const drops = guardDrops(form);
    expect(drops.length).toBeGreaterThan(0);
    expect(keyMayAccept(drops)).toBe(false);
    const warned = guardDrops(`ssh -V; ${form}`);
    expect(warned.some(isReachDrop)).toBe(true);
    expect(keyMayAccept(warned)).toBe(false);
  });

  it.each(
    UNSPELLED.filter((form) => !form.startsWith('cd ')),
  )('%s: with a key and no sandbox, nothing runs (plain bash runs the driver)', async (form) => {
    const ws = await tempWorkspace();
    const mark = path.join(ws.outside, 'mark');
    const command = madeRepository(mark) + form;
    execFileSync('bash', ['-c', command], { cwd: ws.root, env: { PATH }, stdio: 'ignore' });
    expect(existsSync(mark)).toBe(true);
    execFileSync('rm', ['-rf', mark, path.join(ws.root, 'evil')]);
    const bash = createBashTool({ workspaceRoot: ws.root, env: { PATH } });
    const out = await bash.execute({ command }, { ...ws.ctx, keypress: true });
    expect(out.ok).toBe(false);
    expect(existsSync(mark)).toBe(false);
  });

  it.each([`${gitDir}/gi{t,} diff`, `/usr/bin/git* diff`, `/bin/gi? diff`])('%s: a finding', (command) => {
    expect(keyMayAccept(guardDrops(command))).toBe(false);
    expect(guardDrops(command).length).toBeGreaterThan(0);
  });

  it.each([
    './scripts/*.sh',
    './node_modules/.bin/tsc --noEmit',
    'declare -r x=1; declare -a y; local z',
    'declare -x FOO=1',
    'gi? status',
  ])('%s: no finding', (command) => {
    expect(guardDrops(command)).toEqual([]);
  });
});

describe('a copy of git made by cat, dd or tee', () => {
  it.each([
    'cat /usr/bin/git > g; chmod +x g; ./g diff',
    'dd if=/usr/bin/git of=g; chmod +x g; ./g diff',
    'tee g < /dev/null; cat /usr/bin/git | tee g >/dev/null; chmod +x g; ./g diff',
  ])('%s: the box says it may be a git tole does not vet', async (command) => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root, env: { PATH } });
    expect(bash.assess({ command }).reason).toMatch(/not tole's git/);
  });

  it.each(['cat .gitignore', 'cat git-notes.md', 'tee out.txt'])('%s: no sign', async (command) => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root, env: { PATH } });
    expect(bash.assess({ command }).reason).not.toMatch(/not tole's git/);
  });
});

/** Guard-undoing steps tried behind a warning (ssh) that the check already refused. */
const BEHIND_A_WARNING = [
  'hash -p /usr/bin/git git; git diff',
  'export -n GIT_CONFIG_COUNT; git diff',
  'declare +x GIT_CONFIG_COUNT; git diff',
  'printf -v GIT_CONFIG_COUNT 0; git diff',
  'read GIT_CONFIG_COUNT <<< 0; git diff',
  'mapfile -t GIT_CONFIG_COUNT <<< 0; git diff',
  'perl -e \'delete $ENV{GIT_CONFIG_COUNT}; system("git diff")\'',
  'node -e \'require("child_process").execSync("/usr/bin/git diff")\'',
  'ruby -e \'system("/usr/bin/git diff")\'',
  'awk \'BEGIN{system("env -i git diff")}\'',
  "bash <<< '/usr/bin/git diff'",
  'eval "$(echo L3Vzci9iaW4vZ2l0IGRpZmY= | base64 -d)"',
  'echo /usr/bin/git diff | bash',
  'echo /usr/bin/git | xargs -I{} {} diff',
  'f(){ /usr/bin/git "$@"; }; f diff',
  'cd /usr/bin; ./git diff',
  '/usr/bin//git diff',
  '${HOME%/*}/../usr/bin/git diff',
  'PATH=; git diff',
  'OLDPWD=/usr/bin; cd -; ./git diff',
  'pushd /usr/bin; ./git diff',
  "trap 'unset GIT_CONFIG_COUNT; git diff' EXIT",
  'let GIT_CONFIG_COUNT=0; git diff',
  'a=(/usr/bin/git); "${a[@]}" diff',
  'source <(echo unset GIT_CONFIG_COUNT); git diff',
  ". /dev/stdin <<< 'unset GIT_CONFIG_COUNT'; git diff",
  'ln -s /usr/bin/git g; ./g diff',
];

describe('a guard-undoing step behind a warning a key may accept', () => {
  it.each(BEHIND_A_WARNING)('ssh -V; %s: refused', (step) => {
    const drops = guardDrops(`ssh -V; ${step}`);
    expect(drops.some(isReachDrop)).toBe(true);
    expect(keyMayAccept(drops)).toBe(false);
  });
});
