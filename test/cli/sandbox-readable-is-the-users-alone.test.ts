/**
 * `sandbox.readable` (what confined commands may read of the user's home) comes from the user's
 * own config alone: a project's is dropped, trusted or not, and named in the notice; a trusted
 * project's other sandbox settings keep the user's list.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, userOnlyNotice } from '../../src/cli/config';
import { tempDirForTest } from '../support/after-the-test';

function project(config: unknown): string {
  const dir = tempDirForTest('tole-readable-');
  writeFileSync(join(dir, 'tole.config.json'), JSON.stringify(config));
  return dir;
}

function home(config: unknown): string {
  const dir = tempDirForTest('tole-home-');
  mkdirSync(join(dir, '.config', 'tole'), { recursive: true });
  writeFileSync(join(dir, '.config', 'tole', 'config.json'), JSON.stringify(config));
  return dir;
}

describe('sandbox.readable', () => {
  it("is read from the user's config", () => {
    const loaded = loadConfig(tempDirForTest('tole-empty-'), {
      HOME: home({ sandbox: { readable: ['~/.gitconfig', '/opt/tool/etc'] } }),
    });
    expect(loaded.config.sandbox?.readable).toEqual(['~/.gitconfig', '/opt/tool/etc']);
  });

  it.each([
    true,
    false,
  ])("a project's is never applied (trusted: %s), and is named in a notice; the user's stays", (trust) => {
    const dir = project({ sandbox: { readable: ['~/.ssh', '~'], network: true } });
    const env = { HOME: home({ sandbox: { readable: ['~/.gitconfig'] } }) };
    const loaded = loadConfig(dir, env, { trust });
    expect(loaded.config.sandbox?.readable).toEqual(['~/.gitconfig']);
    expect(loaded.config.sandbox?.network).toBe(trust ? true : undefined);
    expect(loaded.project?.userOnly).toEqual(['sandbox.readable']);
    expect(userOnlyNotice(loaded.project!, env)).toContain('sandbox.readable');
  });

  it('a project setting it alone is not named as an ignored trust-gated field', () => {
    const loaded = loadConfig(project({ sandbox: { readable: ['~/.ssh'] } }), { HOME: home({}) });
    expect(loaded.project?.ignored).toEqual([]);
    expect(loaded.config.sandbox?.readable).toBeUndefined();
  });

  it('a relative path is refused with its field', () => {
    const dir = tempDirForTest('tole-empty-');
    expect(() => loadConfig(dir, { HOME: home({ sandbox: { readable: ['.ssh'] } }) })).toThrow(ConfigError);
    expect(() => loadConfig(dir, { HOME: home({ sandbox: { readable: ['.ssh'] } }) })).toThrow(/readable/);
  });
});
