/**
 * Without a sandbox, a ReadOnly command that may read outside the workspace (where the user's
 * credentials live) waits for a key: a path it names by `~`, `$HOME`, an absolute path, `..`, a
 * link out (one the repository ships), a glob matching one, any relative path after a `cd`, `cd`
 * alone, a reader told to follow links; and every command when the workspace holds the home.
 * With the sandbox they stay ReadOnly (the home is out of sight there).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/core/tools/builtin/bash';
import { tempWorkspace } from '../tools/temp-workspace';

async function setup() {
  const ws = await tempWorkspace();
  writeFileSync(path.join(ws.root, 'README.md'), 'x\n');
  mkdirSync(path.join(ws.root, 'src'));
  writeFileSync(path.join(ws.root, 'src', 'a.ts'), 'x\n');
  writeFileSync(path.join(ws.outside, 'id_rsa'), 'secret\n');
  symlinkSync(ws.outside, path.join(ws.root, 'keys'));
  mkdirSync(path.join(ws.root, 'docs'));
  symlinkSync(path.join(ws.outside, 'id_rsa'), path.join(ws.root, 'docs', 'key.txt'));
  return ws;
}

describe('without a sandbox', () => {
  it.each([
    'cat ~/.ssh/id_rsa',
    'cat $HOME/.aws/credentials',
    'cat "${HOME}/.netrc"',
    'cat /etc/passwd',
    'cat ../outside/id_rsa',
    'cat keys/id_rsa',
    'cat docs/*',
    'cat docs/*.txt',
    'cat < ~/.npmrc',
    'cd && cat .ssh/id_rsa',
    'cd src && cat ../../outside/id_rsa',
    'cd keys && cat id_rsa',
    'grep -R secret .',
    'grep -rR secret src',
    'rg --follow secret',
    'find -L . -name "*"',
    'x=~/.ssh; cat $x/id_rsa',
    'for f in ~/.ssh/*; do cat "$f"; done',
    'head --file=/etc/shadow',
    'bash -c "cat ~/.ssh/id_rsa"',
  ])('%s waits for a key', async (command) => {
    const ws = await setup();
    const bash = createBashTool({ workspaceRoot: ws.root, sandbox: null });
    expect(bash.assess!({ command }).risk, bash.assess!({ command }).reason).not.toBe('ReadOnly');
  });

  it.each([
    'cat README.md',
    'cat src/a.ts 2>/dev/null',
    'ls src',
    'grep -r x src',
    'cat src/*.ts',
    'wc -l "$PWD/README.md"',
    'git log --oneline',
    'echo ~ /etc',
    'ls',
  ])('%s still runs without one', async (command) => {
    const ws = await setup();
    const bash = createBashTool({ workspaceRoot: ws.root, sandbox: null });
    expect(bash.assess!({ command }).risk, bash.assess!({ command }).reason).toBe('ReadOnly');
  });

  it('a workspace that holds the home: every command waits for a key', async () => {
    const ws = await setup();
    const bash = createBashTool({ workspaceRoot: ws.root, sandbox: null, homes: [ws.root] });
    expect(bash.assess!({ command: 'cat README.md' }).risk).toBe('Write');
    expect(bash.assess!({ command: 'cat README.md' }).reason).toContain('home directory');
    const inside = createBashTool({ workspaceRoot: ws.root, sandbox: null, homes: [ws.outside] });
    expect(inside.assess!({ command: 'cat README.md' }).risk).toBe('ReadOnly');
  });
});

describe('with the sandbox', () => {
  it('the same reads stay ReadOnly: the home is out of sight there', async () => {
    const ws = await setup();
    const bash = createBashTool({
      workspaceRoot: ws.root,
      sandbox: {
        sandbox: { kind: 'bwrap', program: '/usr/bin/bwrap' },
        policy: { workspaceRoot: ws.root, tempDir: ws.outside, network: false },
      },
    });
    expect(bash.assess!({ command: 'cat ~/.ssh/id_rsa keys/id_rsa' }).risk).toBe('ReadOnly');
  });
});
