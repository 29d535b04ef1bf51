/**
 * The corpus's worlds are copied from one template (corpus/world-template.ts): each must start as
 * a freshly made one would, whatever an earlier world's attack did, or not run at all.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { afterTheTest, tempDirForTest } from '../support/after-the-test';
import { buildWorld, userEnv, type World, worldLeftovers } from './corpus/world';
import { makeWorldTemplate, worldTemplate } from './corpus/world-template';

function freshWorld(name: string, workspaceIsHome = false): World {
  const world = buildWorld(name, { workspaceIsHome });
  afterTheTest(() => world.remove());
  return world;
}

it('a world starts as a made one: the committed files, a clean index, nothing else', () => {
  for (const world of [freshWorld('clean-ws'), freshWorld('clean-home', true)]) {
    expect(worldLeftovers(worldTemplate(), world)).toEqual([]);
    const git = (...args: string[]) => spawnSync('git', args, { cwd: world.ws, env: userEnv(world), encoding: 'utf8' });
    // diff-files reads the index's stat data without refreshing it: a copied index not refreshed fails here.
    expect(git('diff-files', '--quiet').status).toBe(0);
    expect(git('status', '--porcelain').stdout).toBe('');
    expect(git('log', '--format=%an %s').stdout).toBe('User first\n');
  }
});

it("what an attack left in a world's home, workspace, {OUT} or the user's /tmp folder is found", () => {
  const world = freshWorld('left');
  writeFileSync(join(world.out, 'marker'), '');
  mkdirSync(join(world.home, '.ssh'));
  writeFileSync(join(world.home, '.ssh', 'authorized_keys'), 'ssh-ed25519 AAAA attacker\n');
  writeFileSync(join(world.ws, '.git', 'hooks', 'post-checkout'), '#!/bin/sh\n');
  writeFileSync(join(world.ws, 'README.md'), 'changed\n');
  writeFileSync(join(world.hostTmp, 'planted'), '');
  const found = worldLeftovers(worldTemplate(), world).join('\n');
  expect(found).toMatch(/\{OUT\}: extra: marker file/);
  expect(found).toMatch(/home: extra: \.ssh\/authorized_keys file/);
  expect(found).toMatch(/workspace: extra: \.git\/hooks\/post-checkout file/);
  expect(found).toMatch(/workspace: missing: README\.md file/);
  expect(found).toMatch(/the user's \/tmp folder: extra: planted file/);
});

it('a template an attack wrote into refuses to be copied again, naming what changed', () => {
  const template = makeWorldTemplate(tempDirForTest('tole-world-template-'));
  expect(() => template.verify()).not.toThrow();
  writeFileSync(join(template.dir, 'ws', '.git', 'config'), '[core]\n\tfsmonitor = touch /tmp/x\n');
  writeFileSync(join(template.dir, 'home', '.bashrc'), 'touch /tmp/x\n');
  expect(() => template.verify()).toThrow(
    /changed after it was made.*home\/ missing: \.bashrc.*ws\/ missing: \.git\/config/,
  );
});
