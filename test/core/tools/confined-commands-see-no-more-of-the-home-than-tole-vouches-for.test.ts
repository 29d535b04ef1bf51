/**
 * A confined command (real bubblewrap) sees of the user's home only the workspace, the folders
 * tole vouches for and what the user's own config lists (`sandbox.readable`): tried here with the
 * ways around it an attacker would take (links the workspace holds, /proc, a workspace that holds
 * the home, one inside a dot folder, a vouched folder that links back to the home, a listed path
 * that leads into tole's own folders, a HOME moved, unset or set to a system folder). The homes
 * live outside /tmp, which the sandbox replaces anyway.
 */
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hiddenFromCommands,
  homesHiddenFromCommands,
  readableForCommands,
} from '../../../src/cli/hidden-from-commands';
import { createBashTool } from '../../../src/core/tools/builtin/bash';
import { detectSandbox } from '../../../src/core/tools/sandbox';
import { hideableHomes } from '../../../src/core/tools/sandbox-home';
import { tempDirForTest } from '../../support/after-the-test';
import { WORLDS_DIR } from '../../adversarial/corpus/world-template';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
if (!sandbox) console.log('skipping the confined runs: no working bwrap here');

const SECRET = 'home-secret-5d2e';

interface Layout {
  readonly base: string;
  readonly home: string;
}

function plant(file: string, text = `${SECRET}\n`): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A home with credentials, a vouched program and tole's own folders. */
function layout(): Layout {
  mkdirSync(WORLDS_DIR, { recursive: true });
  const base = tempDirForTest('home-view-', WORLDS_DIR);
  const home = path.join(base, 'home');
  plant(path.join(home, '.ssh', 'id_rsa'));
  plant(path.join(home, '.config', 'gh', 'hosts.yml'));
  plant(path.join(home, '.config', 'tole', 'config.json'));
  plant(path.join(home, '.tole', 'index.key'));
  plant(path.join(home, '.cargo', 'credentials.toml'));
  plant(path.join(home, 'notes.txt'));
  plant(path.join(home, '.local', 'bin', 'mytool'), '#!/bin/sh\necho mytool-ran\n');
  chmodSync(path.join(home, '.local', 'bin', 'mytool'), 0o755);
  plant(path.join(home, '.cargo', 'bin', 'cargo-x'), 'cargo-x-binary\n');
  return { base, home };
}

/** bash as tole runs it without a key: confined to `ws`, the home hidden as tole's wiring says. */
function confinedBash(ws: string, l: Layout, readable: readonly string[] = [], homes: readonly string[] = [l.home]) {
  const tempDir = path.join(l.base, 'session-tmp');
  mkdirSync(tempDir, { recursive: true, mode: 0o700 });
  const env = { HOME: l.home };
  const bash = createBashTool({
    workspaceRoot: ws,
    env: { PATH: `${path.join(l.home, '.local', 'bin')}:${process.env['PATH'] ?? '/usr/bin:/bin'}`, HOME: l.home },
    sandbox: {
      sandbox: sandbox!,
      policy: {
        workspaceRoot: ws,
        tempDir,
        network: false,
        hidden: hiddenFromCommands(env, undefined, path.join(l.base, 'tmp-parent')),
        homes,
        readable: readableForCommands(readable, env),
      },
    },
  });
  return async (command: string): Promise<string> =>
    (await bash.execute({ command }, { workspaceRoot: ws, signal: new AbortController().signal, callId: 'c' })).content;
}

function project(l: Layout, at = path.join(l.home, 'proj')): string {
  mkdirSync(at, { recursive: true });
  writeFileSync(path.join(at, 'README.md'), 'project readme\n');
  return at;
}

describe('the homes tole hides', () => {
  it('are $HOME and the password database’s home, whatever HOME says', () => {
    expect(homesHiddenFromCommands({ HOME: '/home/u' }, '/home/u')).toEqual(['/home/u']);
    expect(homesHiddenFromCommands({ HOME: '/srv/odd' }, '/home/u')).toEqual(['/srv/odd', '/home/u']);
    expect(homesHiddenFromCommands({}, '/home/u')).toEqual(['/home/u']);
    expect(homesHiddenFromCommands({ HOME: 'relative' }, '/home/u')).toEqual(['/home/u']);
    expect(homesHiddenFromCommands({ HOME: '' }, null)).toEqual([]);
  });

  it('leave out /, system folders, missing folders and files, and take a link at its real place', () => {
    const l = layout();
    const link = path.join(l.base, 'home-link');
    symlinkSync(l.home, link);
    expect(hideableHomes(['/', '/usr', '/usr/sbin', '/bin', '/etc', '/dev', '/proc', 'rel'])).toEqual([]);
    expect(hideableHomes([path.join(l.base, 'missing'), path.join(l.home, 'notes.txt')])).toEqual([]);
    expect(hideableHomes([link, l.home])).toEqual([l.home]);
  });

  it('a readable path is the user’s, ~ in their home; relative ones are dropped', () => {
    expect(readableForCommands(['~/.gitconfig', '~', '/opt/x/../y', 'rel', '~x'], { HOME: '/h' })).toEqual([
      '/h/.gitconfig',
      '/h',
      '/opt/y',
    ]);
  });
});

describe.skipIf(!sandbox)('a confined command and the home', () => {
  it.each([
    'cat ~/.ssh/id_rsa',
    'cat ../.ssh/id_rsa',
    'cat ~/.config/gh/hosts.yml ~/.cargo/credentials.toml ~/notes.txt',
    'grep -r home-secret ~ 2>/dev/null',
    'cat /proc/self/root"$HOME"/.ssh/id_rsa',
    'cat /proc/1/root"$HOME"/.ssh/id_rsa /proc/1/cwd/../.ssh/id_rsa',
    'ln -s ~/.ssh k && cat k/id_rsa',
    'cat linked/id_rsa',
    'umount ~ 2>&1; cat ~/.ssh/id_rsa',
    'unshare -rm sh -c "umount $HOME; cat $HOME/.ssh/id_rsa"',
    'cat ~/.local/bin/../../.ssh/id_rsa ~/.cargo/bin/../credentials.toml',
    'HOME=/ cat ~/../"$OLDPWD"/.ssh/id_rsa; cd / && cat ."$HOME"/.ssh/id_rsa',
  ])('in a project in the home, %s reads none of it', async (command) => {
    const l = layout();
    const ws = project(l);
    symlinkSync('../.ssh', path.join(ws, 'linked'));
    const out = await confinedBash(ws, l)(command);
    expect(out).not.toContain(SECRET);
  });

  it('what ordinary commands need is seen: the project (written too), ~/.local/bin, ~/.cargo/bin', async () => {
    const l = layout();
    const ws = project(l);
    const run = confinedBash(ws, l);
    expect(await run('cat README.md')).toContain('project readme');
    expect(await run('mytool')).toContain('mytool-ran');
    expect(await run('cat ~/.cargo/bin/cargo-x')).toContain('cargo-x-binary');
    expect(await run('echo made > made.txt && cat made.txt')).toContain('made');
    expect(readFileSync(path.join(ws, 'made.txt'), 'utf8')).toBe('made\n');
    // Nothing is written in the home, hidden or shown.
    await run('echo x > ~/.bashrc; echo x > ~/.local/bin/planted; mkdir ~/.ssh2');
    expect(() => readFileSync(path.join(l.home, '.bashrc'))).toThrow();
    expect(() => readFileSync(path.join(l.home, '.local', 'bin', 'planted'))).toThrow();
  });

  it('the user’s readable paths are seen, a link at its place, and nothing beside them', async () => {
    const l = layout();
    plant(path.join(l.home, 'dotfiles', 'gitconfig'), '[user]\n\tname = someone\n');
    plant(path.join(l.home, 'dotfiles', 'private'));
    symlinkSync('dotfiles/gitconfig', path.join(l.home, '.gitconfig'));
    const ws = project(l);
    const run = confinedBash(ws, l, ['~/.gitconfig']);
    expect(await run('cat ~/.gitconfig')).toContain('name = someone');
    expect(await run('git config --global user.name')).toContain('someone');
    const out = await run('cat ~/dotfiles/private ~/.ssh/id_rsa');
    expect(out).not.toContain(SECRET);
  });

  it('a readable path never shows tole’s own folders again, and a listed folder holding one keeps it hidden', async () => {
    const l = layout();
    const ws = project(l);
    const run = confinedBash(ws, l, ['~/.tole', '~/.tole/index.key', '~/.config']);
    // ~/.config was listed: gh's token is the user's to show; tole's config in it stays hidden.
    expect(await run('cat ~/.config/gh/hosts.yml')).toContain(SECRET);
    const out = await run('cat ~/.tole/index.key ~/.config/tole/config.json');
    expect(out).not.toContain(SECRET);
  });

  it('a readable path or a vouched folder whose real place is the home, or a link to a folder holding tole’s, shows nothing', async () => {
    const l = layout();
    symlinkSync(l.home, path.join(l.home, '.nvm'));
    symlinkSync('.config', path.join(l.home, 'cfg'));
    const ws = project(l);
    const run = confinedBash(ws, l, ['~/cfg', '~/']);
    expect(await run('cat ~/.nvm/.ssh/id_rsa ~/cfg/tole/config.json ~/.ssh/id_rsa')).not.toContain(SECRET);
    expect(await run('ls -A ~/.nvm ~/cfg 2>&1')).not.toMatch(/^(gh|tole|\.ssh|notes\.txt)$/m);
  });

  it('a workspace that is the home: its dot folders are hidden (vouched ones shown), its other files are the workspace', async () => {
    const l = layout();
    const run = confinedBash(l.home, l);
    const out = await run('cat .ssh/id_rsa .config/gh/hosts.yml .cargo/credentials.toml .tole/index.key');
    expect(out).not.toContain(SECRET);
    expect(await run('grep -r home-secret . 2>/dev/null')).toContain('notes.txt');
    expect(await run('mytool; cat .cargo/bin/cargo-x')).toContain('cargo-x-binary');
  });

  it('a workspace that holds the home hides it below the workspace', async () => {
    const l = layout();
    writeFileSync(path.join(l.base, 'README.md'), 'outer\n');
    const run = confinedBash(l.base, l);
    expect(await run('cat home/.ssh/id_rsa home/notes.txt; grep -r home-secret . 2>/dev/null')).not.toContain(SECRET);
    // (PATH leaves out folders in the workspace: the program is named by its path.)
    expect(await run('cat README.md; home/.local/bin/mytool')).toContain('mytool-ran');
  });

  it('a workspace inside a dot folder of the home sees itself, nothing beside it', async () => {
    const l = layout();
    const ws = project(l, path.join(l.home, '.config', 'proj'));
    const run = confinedBash(ws, l);
    expect(await run('cat ../gh/hosts.yml ../../.ssh/id_rsa')).not.toContain(SECRET);
    expect(await run('cat README.md && echo w > w.txt && cat w.txt')).toContain('w');
  });

  it('with HOME moved elsewhere, the password database’s home is hidden as well', async () => {
    const l = layout();
    const other = path.join(l.base, 'other-home');
    plant(path.join(other, '.aws', 'credentials'));
    const ws = project(l);
    const run = confinedBash(ws, l, [], [other, l.home]);
    expect(await run(`cat ${other}/.aws/credentials ~/.ssh/id_rsa`)).not.toContain(SECRET);
  });
});
