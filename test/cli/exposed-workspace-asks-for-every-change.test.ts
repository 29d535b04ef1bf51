/**
 * With the workspace at /, at the home directory, or holding tole's folder or the user's
 * dotfiles, nothing that changes anything runs without a key: --yes, allow rules (the user's and
 * the command line's) and the "a" key's session allowance do not apply; headless, such a call is
 * denied. In a project folder the same flags work as before.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args';
import { exposedWorkspaceNotice, exposedWorkspaceReason } from '../../src/cli/exposed-workspace';
import { buildPolicy } from '../../src/cli/wiring';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { tempDirForFile } from '../support/after-the-test';

const base = tempDirForFile('tole-exposed-');
const home = path.join(base, 'home', 'me');
const project = path.join(home, 'code', 'project');
mkdirSync(project, { recursive: true });
mkdirSync(path.join(home, '.ssh'));
const env = { HOME: home };

const write: ApprovalRequest = {
  callId: 'c1',
  tool: 'bash',
  subject: 'touch made.txt',
  input: { command: 'touch made.txt' },
  risk: 'Write',
  reason: 'writes a file',
};

describe('exposedWorkspaceReason', () => {
  it('names /, the home directory, a folder above it, and one holding tole home or a dotfile', () => {
    expect(exposedWorkspaceReason('/', env)).toContain('/ (the whole filesystem)');
    expect(exposedWorkspaceReason(home, env)).toContain('home directory');
    expect(exposedWorkspaceReason(path.join(base, 'home'), env)).toContain('.tole');
    expect(exposedWorkspaceReason(path.join(base, 'home'), { ...env, TOLE_HOME: path.join(base, 'tole') })).toContain(
      '.bashrc',
    );
    const toleHere = path.join(project, 'state');
    expect(exposedWorkspaceReason(project, { ...env, TOLE_HOME: toleHere })).toContain("tole's own folder");
    expect(exposedWorkspaceReason(project, { ...env, XDG_CONFIG_HOME: path.join(project, 'cfg') })).toContain('cfg');
  });

  it("names tole's folder or a config folder inside the workspace whose name begins with two dots", () => {
    // `..tole` is an ordinary name: a check by path.relative's leading `..` read it as outside.
    const dotted = path.join(project, '..tole');
    expect(exposedWorkspaceReason(project, { ...env, TOLE_HOME: dotted })).toContain("tole's own folder");
    expect(exposedWorkspaceReason(project, { ...env, XDG_CONFIG_HOME: path.join(project, '..config') })).toContain(
      '..config',
    );
    // A sibling whose name only begins as the workspace's does is outside it.
    expect(exposedWorkspaceReason(project, { ...env, TOLE_HOME: `${project}-tole` })).toBeNull();
  });

  it('leaves a project folder alone', () => {
    expect(exposedWorkspaceReason(project, env)).toBeNull();
  });

  it('follows symlinks: a link to the home directory is the home directory', () => {
    const link = path.join(base, 'link-to-home');
    symlinkSync(home, link);
    expect(exposedWorkspaceReason(link, env)).toContain('home directory');
  });

  it('the start notice says what no longer applies and what to do', () => {
    const notice = exposedWorkspaceNotice(exposedWorkspaceReason(home, env)!);
    expect(notice).toContain('--yes');
    expect(notice).toContain('project folder');
  });
});

describe('the policy in an exposed workspace', () => {
  const args = parseArgs(['--yes', '--allow', 'bash:touch made.txt']);
  const config = { allow: ['bash'] };

  it('interactive: a Write call asks despite --yes and rules, and "a" allows nothing further', () => {
    const policy = buildPolicy(args, config, true, 'tole.config.json', null, 'the workspace is your home directory');
    expect(policy.preDecide(write)).toEqual({ ask: true });
    policy.allowForSession('bash');
    expect(policy.preDecide(write)).toEqual({ ask: true });
  });

  it('headless: a Write call is denied despite --yes and rules', () => {
    const policy = buildPolicy(args, config, false, 'tole.config.json', null, 'the workspace is /');
    expect(policy.preDecide(write)).toMatchObject({ approved: false, by: 'headless' });
  });

  it('a ReadOnly call still runs', () => {
    const policy = buildPolicy(args, config, false, 'tole.config.json', null, 'the workspace is /');
    expect(policy.preDecide({ ...write, risk: 'ReadOnly' })).toEqual({ approved: true, by: 'policy' });
  });

  it('in a project folder the same flags approve it', () => {
    const policy = buildPolicy(args, config, false, 'tole.config.json', null, null);
    expect(policy.preDecide(write)).toMatchObject({ approved: true });
  });
});
