import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readConfigFile } from '../../src/cli/config';

const root = join(import.meta.dirname, '..', '..');

function configFile(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tole-config-'));
  const path = join(dir, 'tole.config.json');
  writeFileSync(path, content);
  return path;
}

describe('config files', () => {
  it('the example config validates, field by field', () => {
    const config = readConfigFile(join(root, 'tole.config.example.json'));
    expect(config.provider).toBe('ollama');
    expect(config.limits?.maxSteps).toBe(50);
    expect(config.allow).toContain('bash:git status*');
  });

  it('a wrong type is an error naming the file and the field', () => {
    const path = configFile('{"limits": {"maxSteps": "fifty"}}');
    expect(() => readConfigFile(path)).toThrow(ConfigError);
    expect(() => readConfigFile(path)).toThrow(new RegExp(`${path}.*field "limits.maxSteps"`));
  });

  it('an unknown field is refused, so a typo never passes silently', () => {
    const path = configFile('{"modle": "gpt-4.1"}');
    expect(() => readConfigFile(path)).toThrow(/modle/);
  });

  it('invalid JSON names the file', () => {
    const path = configFile('{"model": ');
    expect(() => readConfigFile(path)).toThrow(/not valid JSON/);
  });

  it('the project file goes over the user file', () => {
    const home = mkdtempSync(join(tmpdir(), 'tole-home-'));
    const userDir = join(home, '.config', 'tole');
    mkdirSync(userDir, { recursive: true });
    writeFileSync(join(userDir, 'config.json'), '{"model": "user-model", "theme": "light", "allow": ["bash:ls"]}');
    const project = mkdtempSync(join(tmpdir(), 'tole-project-'));
    writeFileSync(join(project, 'tole.config.json'), '{"model": "project-model", "allow": ["bash:npm test"]}');
    const { config, files } = loadConfig(project, { HOME: home }, undefined);
    expect(files).toHaveLength(2);
    expect(config.model).toBe('project-model');
    expect(config.theme).toBe('light');
    expect(config.allow).toEqual(['bash:ls', 'bash:npm test']);
  });
});
