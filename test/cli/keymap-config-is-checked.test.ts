import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readConfigFile } from '../../src/cli/config';
import { main } from '../../src/cli/main';
import { tempDirForTest } from '../support/after-the-test';

const root = join(import.meta.dirname, '..', '..');

function project(config: unknown): string {
  const dir = tempDirForTest('tole-keymap-');
  writeFileSync(join(dir, 'tole.config.json'), JSON.stringify(config));
  return dir;
}

/** A home whose own config (the one place a keymap is read from) is `config`. */
function home(config: unknown): string {
  const dir = tempDirForTest('tole-home-');
  mkdirSync(join(dir, '.config', 'tole'), { recursive: true });
  writeFileSync(join(dir, '.config', 'tole', 'config.json'), JSON.stringify(config));
  return dir;
}

async function run(
  cwd: string,
  argv: string[] = [],
  HOME = tempDirForTest('tole-home-'),
): Promise<{ code: number; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (chunk) => (err += String(chunk)));
  const code = await main({ argv, env: { HOME }, cwd, stdout, stderr });
  return { code, stderr: err };
}

describe('the keymap field of the config', () => {
  it('the example config binds focus-next and help, and is valid', () => {
    const config = readConfigFile(join(root, 'tole.config.example.json'));
    expect(config.keymap).toEqual({ 'focus-next': 'tab', help: '?' });
  });

  it('an unknown action is a config error naming the field and the action meant', () => {
    const dir = project({ keymap: { 'focus-nxt': 'tab' } });
    expect(() => readConfigFile(join(dir, 'tole.config.json'))).toThrow(ConfigError);
    expect(() => readConfigFile(join(dir, 'tole.config.json'))).toThrow(
      /field "keymap\.focus-nxt": "focus-nxt" is not an action; did you mean "focus-next"\?/,
    );
  });

  // The screen's own run (no -p) is checked with the screen's tests (test/tui/keymap-overrides-apply.test.tsx),
  // where the screen's modules are loaded already.
  it('a bad keymap fails headless runs too, since it is the same config', async () => {
    const { code, stderr } = await run(project({}), ['-p', 'hi'], home({ keymap: { quit: 'hyper+q' } }));
    expect(code).toBe(2);
    expect(stderr).toContain('field "keymap.quit"');
  });

  it("a project's keymap is never read: a bad one neither applies nor stops tole, and is named in a notice", () => {
    const dir = project({ keymap: { quit: 'hyper+q', approve: 'n' }, theme: 'no-such-theme' });
    const loaded = loadConfig(dir, { HOME: tempDirForTest('tole-home-') });
    expect(loaded.config.keymap).toEqual({});
    expect(loaded.config.theme).toBeUndefined();
    expect(loaded.project?.userOnly).toEqual(['keymap', 'theme']);
  });
});
