/**
 * What the model reads when a bash call cannot run unconfined names only what can work: with no
 * sandbox no key and no `outside_sandbox` runs it, so neither is offered; where the sandbox ran it
 * and it failed there, `outside_sandbox` is not offered while the repository's config (or the
 * command itself) keeps it from running unconfined, since a key would run it in the sandbox again.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../../../src/core/tools/builtin/bash';
import { detectSandbox } from '../../../src/core/tools/sandbox';
import { sandboxedBash, tempWorkspace } from './temp-workspace';

const sandbox = detectSandbox(process.platform, process.env['PATH']);
const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

/** A workspace whose repository's config holds a key tole does not know. */
async function unvouched() {
  const ws = await tempWorkspace();
  execFileSync('git', ['init', '-q'], { cwd: ws.root });
  appendFileSync(path.join(ws.root, '.git', 'config'), `[gitflow "path"]\n\thooks = ${ws.outside}\n`);
  return ws;
}

describe('a bash call refused unconfined', () => {
  it('with no sandbox, offers neither a key nor outside_sandbox, and says the user must act', async () => {
    const ws = await unvouched();
    const bash = createBashTool({ workspaceRoot: ws.root, env: ENV });
    const mark = path.join(ws.outside, 'ran');
    const out = await bash.execute({ command: `touch ${mark}` }, { ...ws.ctx, keypress: true });
    expect(out.ok).toBe(false);
    expect(existsSync(mark)).toBe(false);
    expect(out.content).toContain('gitflow.path.hooks (in .git/config)');
    expect(out.content).toContain('it is refused: there is no sandbox here');
    expect(out.content).toContain('Calling bash again will not help, with outside_sandbox or without');
    expect(out.content).toContain('Tell the user');
    expect(out.content).not.toMatch(/run it in the sandbox|without outside_sandbox\)|approve it with a key/i);
  });

  it('with no sandbox, a command that drops the guard is told to be written without that, nothing else', async () => {
    const ws = await tempWorkspace();
    const bash = createBashTool({ workspaceRoot: ws.root, env: ENV });
    const out = await bash.execute({ command: 'env -i true' }, { ...ws.ctx, keypress: true });
    expect(out.content).toContain('the command runs env');
    expect(out.content).toContain('Write the command without that');
    expect(out.content).not.toMatch(/outside_sandbox|sandbox \(|git config --unset|trustedGitKeys/);
  });

  it.skipIf(!sandbox)('where a sandbox exists, a key refused at the run is told a key runs it there', async () => {
    const ws = await unvouched();
    const { bash } = sandboxedBash(ws, sandbox!, { env: ENV });
    const out = await bash.execute({ command: 'true', outside_sandbox: true }, { ...ws.ctx, keypress: true });
    expect(out.ok).toBe(false);
    expect(out.content).toContain('tole did not run this command outside its sandbox');
    expect(out.content).toContain('Call it again: the approval then runs it only in the sandbox');
    expect(out.content).not.toContain('without outside_sandbox');
  });

  it.skipIf(!sandbox)(
    'where the sandbox stopped it, outside_sandbox is offered only where it could run unconfined',
    async () => {
      const target = '/usr/tole-sandbox-probe.txt';
      const command = `touch ${target}`;
      const clean = await tempWorkspace();
      const free = await sandboxedBash(clean, sandbox!, { env: ENV }).bash.execute({ command }, clean.ctx);
      expect(free.content).toContain('Read-only file system');
      expect(free.content).toContain('call bash again with "outside_sandbox": true');
      const ws = await unvouched();
      const held = await sandboxedBash(ws, sandbox!, { env: ENV }).bash.execute({ command }, ws.ctx);
      expect(held.content).toContain('Read-only file system');
      expect(held.content).toContain('It cannot run outside the sandbox as it is: git config key gitflow.path.hooks');
      expect(held.content).toContain('a call with "outside_sandbox": true runs in the sandbox again');
      expect(held.content).not.toContain('call bash again with "outside_sandbox": true');
      expect(existsSync(target)).toBe(false);
    },
  );
});
