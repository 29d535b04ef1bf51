/**
 * A git the command reaches by a path its text does not spell (a variable, find -exec {}, a link or
 * copy it makes) is not tole's git: unconfined, a repository's drivers run there. tole cannot tell
 * from the text which program that is, so the approval box says it (the call's reason). Confined,
 * the sandbox holds it: a driver cannot write outside the workspace, and tole's git, in the host's
 * /tmp, is neither seen nor changed from inside the sandbox.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../src/core/tools/builtin/bash';
import { detectSandbox } from '../../src/core/tools/sandbox';
import { sandboxedBash, tempWorkspace } from '../core/tools/temp-workspace';

const PATH = process.env['PATH'] ?? '/usr/bin:/bin';
const sandbox = detectSandbox(process.platform, PATH);

/**
 * The command makes a repository whose textconv touches `mark` (the sandbox keeps an existing
 * repository's config read-only), then runs the real git found at run time in it.
 */
const madeRepository = (mark: string): string =>
  'git init -q evil && cd evil && echo one > f.x && echo "*.x diff=evil" > .gitattributes && git add -A && ' +
  'git -c user.email=t@t -c user.name=t commit -qm 1 && echo two >> f.x && ' +
  `git config diff.evil.textconv "sh -c 'touch ${mark}; cat \\"\\$0\\"'" && `;

const BY_PATHS_UNSPELLED = [
  'g=$(type -ap git | tail -1); $g diff',
  'find /usr/bin /bin -maxdepth 1 -name git -exec {} diff \\; -quit',
  'ln -s "$(type -ap git | tail -1)" ../mygit && ../mygit diff',
  'IFS=:; for d in $PATH; do [ -x $d/git ] && r=$d/git; done; $r diff',
  'cp "$(type -ap git | tail -1)" ../g2 && ../g2 diff',
];

describe('a git reached by a path the text does not spell', () => {
  it.each(BY_PATHS_UNSPELLED)('%s: the box says it may be a git tole does not vet', async (command) => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root, env: { PATH } });
    expect(bash.assess({ command }).reason).toMatch(/not vet|not tole's git/);
  });

  it.each([
    '$CC -o x x.c',
    'find . -name "*.sh" -exec {} \\;',
    'cp a.txt b.txt',
    'git status',
  ])('%s: no sign where git is not named, or run by name', async (command) => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root, env: { PATH } });
    expect(bash.assess({ command }).reason).not.toMatch(/not vet|not tole's git/);
  });

  it.skipIf(!sandbox).each(BY_PATHS_UNSPELLED)('%s: confined, the driver cannot leave its mark', async (form) => {
    const ws = await tempWorkspace();
    const mark = path.join(ws.outside, 'mark');
    const command = madeRepository(mark) + form;
    // The danger is real: plain bash runs the driver.
    execFileSync('bash', ['-c', command], { cwd: ws.root, env: { PATH }, stdio: 'ignore' });
    expect(existsSync(mark)).toBe(true);
    rmSync(mark);
    for (const made of ['evil', 'mygit', 'g2']) rmSync(path.join(ws.root, made), { recursive: true, force: true });
    const { bash } = sandboxedBash(ws, sandbox!, { env: { PATH } });
    const out = await bash.execute({ command }, ws.ctx);
    // git ran the driver (its cat gave the diff), which could not touch the mark outside the workspace.
    expect(out.content).toContain('+two');
    expect(out.content).toContain('touch: cannot touch');
    expect(existsSync(mark)).toBe(false);
  });

  it.skipIf(!sandbox)("confined, tole's git is out of sight and out of reach", async () => {
    const ws = await tempWorkspace();
    const { bash } = sandboxedBash(ws, sandbox!, { env: { PATH } });
    // A key runs it unconfined: tole's git is written, and found first on PATH.
    const first = await bash.execute({ command: 'command -v git' }, { ...ws.ctx, keypress: true });
    const shim = first.content.split('\n')[0]!.trim();
    expect(shim).toMatch(/tole-git-.*\/bin\/git$/);
    const before = readFileSync(shim, 'utf8');
    const inside = await bash.execute(
      {
        command:
          `if [ -e ${shim} ]; then echo visible; else echo hidden; fi; ` +
          `rm -f ${shim}; ln -sf "$(type -ap git | tail -1)" ${shim}; echo 'exec /usr/bin/git "$@"' > ${shim}; ` +
          'command -v git',
      },
      ws.ctx,
    );
    expect(inside.content).toContain('hidden');
    // What the sandbox finds first on PATH is not tole's git: the host's /tmp is not there.
    expect(inside.content.trimEnd().split('\n').at(-2)).not.toBe(shim);
    expect(readFileSync(shim, 'utf8')).toBe(before);
    const again = await bash.execute({ command: 'command -v git' }, { ...ws.ctx, keypress: true });
    expect(again.content.split('\n')[0]!.trim()).toBe(shim);
  });
});
