import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/cli/config';
import { tempDirForTest } from '../support/after-the-test';

function project(config: unknown): string {
  const dir = tempDirForTest('tole-notify-');
  writeFileSync(join(dir, 'tole.config.json'), JSON.stringify(config));
  return dir;
}

function home(config: unknown): string {
  const dir = tempDirForTest('tole-home-');
  mkdirSync(join(dir, '.config', 'tole'), { recursive: true });
  writeFileSync(join(dir, '.config', 'tole', 'config.json'), JSON.stringify(config));
  return dir;
}

describe('the notify config', () => {
  it("is read from the user's config", () => {
    const loaded = loadConfig(tempDirForTest('tole-empty-'), {
      HOME: home({ notify: { bell: false, osc9: true, afterTurnMs: 5000 } }),
    });
    expect(loaded.config.notify).toEqual({ bell: false, osc9: true, afterTurnMs: 5000 });
  });

  it("a project's is never applied, trusted or not, and is named in a notice: a repository cannot make tole ring", () => {
    const dir = project({ notify: { bell: true, osc9: true, afterTurnMs: 0 } });
    const loaded = loadConfig(dir, { HOME: home({ notify: { bell: false, osc9: false } }) }, { trust: true });
    expect(loaded.config.notify).toEqual({ bell: false, osc9: false });
    expect(loaded.project?.userOnly).toEqual(['notify']);
  });

  it('a wrong value is named with its field', () => {
    for (const notify of [{ bell: 'yes' }, { afterTurnMs: -1 }, { sound: true }]) {
      const dir = tempDirForTest('tole-empty-');
      expect(() => loadConfig(dir, { HOME: home({ notify }) })).toThrow(ConfigError);
      expect(() => loadConfig(dir, { HOME: home({ notify }) })).toThrow(/notify/);
    }
  });
});
