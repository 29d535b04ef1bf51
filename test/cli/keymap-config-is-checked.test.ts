import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfigFile } from '../../src/cli/config';
import { main } from '../../src/cli/main';

const root = join(import.meta.dirname, '..', '..');

function project(config: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'tole-keymap-'));
  writeFileSync(join(dir, 'tole.config.json'), JSON.stringify(config));
  return dir;
}

async function run(cwd: string, argv: string[] = []): Promise<{ code: number; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (chunk) => (err += String(chunk)));
  const code = await main({ argv, env: { HOME: mkdtempSync(join(tmpdir(), 'tole-home-')) }, cwd, stdout, stderr });
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

  it('an unparseable chord is a config error naming the field; tole exits 2 before opening anything', async () => {
    const dir = project({ keymap: { help: ['ctrl+o', 'ctrl+shift+'] } });
    const { code, stderr } = await run(dir);
    expect(code).toBe(2);
    expect(stderr).toContain('field "keymap.help": "ctrl+shift+" is not a key chord');
    expect(stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
  });

  it('a bad keymap fails headless runs too, since it is the same config', async () => {
    const dir = project({ keymap: { quit: 'hyper+q' } });
    const { code, stderr } = await run(dir, ['-p', 'hi']);
    expect(code).toBe(2);
    expect(stderr).toContain('field "keymap.quit"');
  });
});
