/**
 * A user's PATH may name the command's own folder without meaning to: an empty entry (a trailing
 * `:` left by `PATH=$PATH:$EXTRA`), `.`, a relative `node_modules/.bin`, or an absolute folder that
 * lies in the workspace. The model's command runs in the workspace, so through such an entry a name
 * the read-only check passed (`rg`, `tree`, or any not installed) ran the repository's own program
 * of that name, unconfined where there is no sandbox. The bash tool now drops those entries.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/core/tools/builtin/bash';
import { pathOutsideWorkspace } from '../../../src/core/tools/path-outside-workspace';
import { tempWorkspace } from './temp-workspace';

const SYSTEM = '/usr/bin:/bin';

async function plantedWorkspace() {
  const ws = await tempWorkspace();
  const program = '#!/bin/sh\necho PLANTED-RAN\n';
  for (const dir of ['', 'bin', 'node_modules/.bin']) {
    mkdirSync(path.join(ws.root, dir), { recursive: true });
    writeFileSync(path.join(ws.root, dir, 'tole-planted-tool'), program, { mode: 0o755 });
  }
  symlinkSync(path.join(ws.root, 'bin'), path.join(ws.outside, 'link-to-ws-bin'));
  symlinkSync(ws.root, path.join(ws.outside, 'link-to-ws'));
  return ws;
}

describe("the model's command finds no program in the workspace through PATH", () => {
  const paths = (root: string, outside: string): string[] => [
    `${SYSTEM}:`,
    `:${SYSTEM}`,
    `/usr/bin::/bin`,
    `.:${SYSTEM}`,
    `${SYSTEM}:.`,
    `bin:${SYSTEM}`,
    `node_modules/.bin:${SYSTEM}`,
    `./node_modules/.bin:${SYSTEM}`,
    `${root}/bin:${SYSTEM}`,
    `${root}/node_modules/.bin:${SYSTEM}`,
    `${root}:${SYSTEM}`,
    `${root}/bin/../bin:${SYSTEM}`,
    `${outside}/link-to-ws-bin:${SYSTEM}`,
  ];

  it('runs no repository program through any such PATH', async () => {
    const ws = await plantedWorkspace();
    for (const value of paths(ws.root, ws.outside)) {
      const bash = createBashTool({ workspaceRoot: ws.root, env: { PATH: value } });
      const out = await bash.execute({ command: 'tole-planted-tool' }, ws.ctx);
      expect(out.content, value).not.toContain('PLANTED-RAN');
      expect(out.content, value).toMatch(/command not found/);
    }
  });

  it('keeps every entry outside the workspace, in order', async () => {
    const ws = await plantedWorkspace();
    expect(pathOutsideWorkspace(`/opt/x/bin:${ws.root}/bin:/usr/local/bin::.:${SYSTEM}`, ws.root)).toBe(
      `/opt/x/bin:/usr/local/bin:${SYSTEM}`,
    );
    expect(pathOutsideWorkspace(`${ws.root}-sibling/bin:${SYSTEM}`, ws.root)).toBe(`${ws.root}-sibling/bin:${SYSTEM}`);
    expect(pathOutsideWorkspace('.::bin', ws.root)).toBe(SYSTEM);
  });

  it('leaves out a folder not made yet that a link outside leads into the workspace', async () => {
    // The PATH is read at the start; a command may make the folder later and put a git in it.
    const ws = await plantedWorkspace();
    for (const later of ['later/bin', 'later', 'bin/deeper/still']) {
      const entry = `${ws.outside}/link-to-ws/${later}`;
      expect(pathOutsideWorkspace(`${entry}:${SYSTEM}`, ws.root), entry).toBe(SYSTEM);
    }
    // The same shapes outside the workspace are kept.
    expect(pathOutsideWorkspace(`${ws.outside}/not-made/bin:${SYSTEM}`, ws.root)).toBe(
      `${ws.outside}/not-made/bin:${SYSTEM}`,
    );
    expect(pathOutsideWorkspace(`/nonexistent-tole-root/bin:${SYSTEM}`, ws.root)).toBe(
      `/nonexistent-tole-root/bin:${SYSTEM}`,
    );
  });

  it('reads no .bashrc, which could put . first again', async () => {
    // bash -c reads ~/.bashrc when SSH_CLIENT is set and SHLVL is not (tole started over ssh by a
    // shell that sets no SHLVL, or by a service), and on a socket for stdin.
    const ws = await plantedWorkspace();
    writeFileSync(path.join(ws.outside, '.bashrc'), 'echo BASHRC-READ\nexport PATH=.:$PATH\n');
    const env = { PATH: SYSTEM, HOME: ws.outside, SSH_CLIENT: '192.0.2.1 40000 22', SSH_CONNECTION: 'x' };
    const bash = createBashTool({ workspaceRoot: ws.root, env });
    const out = await bash.execute({ command: 'echo $HOME; tole-planted-tool' }, ws.ctx);
    expect(out.content).toContain(ws.outside);
    expect(out.content).not.toContain('BASHRC-READ');
    expect(out.content).not.toContain('PLANTED-RAN');
  });

  it('still finds programs outside the workspace', async () => {
    const ws = await plantedWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root, env: { PATH: `.:${SYSTEM}` } });
    const out = await bash.execute({ command: 'echo hello | tr a-z A-Z' }, ws.ctx);
    expect(out.content).toContain('HELLO');
  });
});
