import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/cli/agent-profiles';
import { ConfigError, loadConfig, readConfigFile } from '../../src/cli/config';
import { builtinTools } from '../../src/core/tools/builtin/index';
import { tempDirForTest } from '../support/after-the-test';

const root = join(import.meta.dirname, '..', '..');

function configFile(content: string): string {
  const dir = tempDirForTest('tole-config-');
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
    expect(config.generation).toMatchObject({ temperature: 0.3, stop: ['<|end|>'] });
    expect(Array.isArray(config.prompt)).toBe(true);
  });

  it("the example agent profile validates, its tools among tole's", () => {
    const places = { userDir: join(root, 'examples', 'agents'), projectDir: null };
    const known = builtinTools({ workspaceRoot: root, interactiveApprover: true }).map((tool) => tool.name);
    const { profile } = loadProfile('reviewer', places, known);
    expect(profile.tools).toContain('read_file');
    expect(profile.tools).not.toContain('write_file');
    expect(profile.generation?.temperature).toBe(0.2);
  });

  it('a wrong type is an error naming the file and the field', () => {
    const path = configFile('{"limits": {"maxSteps": "fifty"}}');
    expect(() => readConfigFile(path)).toThrow(ConfigError);
    expect(() => readConfigFile(path)).toThrow(new RegExp(`${path}.*field "limits.maxSteps"`));
  });

  it('a checkpoint time limit under a second is refused, naming the field', () => {
    // 0.0001 s rounded to a 0 ms limit: every checkpoint failed at once, told as "0 s".
    for (const limit of ['0.0001', '0.5', '0', '-1']) {
      const path = configFile(`{"checkpoints": {"timeLimitSeconds": ${limit}}}`);
      expect(() => readConfigFile(path)).toThrow(/field "checkpoints.timeLimitSeconds"/);
    }
    const path = configFile('{"checkpoints": {"timeLimitSeconds": 1}}');
    expect(readConfigFile(path).checkpoints?.timeLimitSeconds).toBe(1);
  });

  it('an unknown field is refused, so a typo never passes silently', () => {
    const path = configFile('{"modle": "gpt-4.1"}');
    expect(() => readConfigFile(path)).toThrow(/modle/);
  });

  it('invalid JSON names the file', () => {
    const path = configFile('{"model": ');
    expect(() => readConfigFile(path)).toThrow(/not valid JSON/);
  });

  it('a trusted project file goes over the user file', () => {
    const home = tempDirForTest('tole-home-');
    const userDir = join(home, '.config', 'tole');
    mkdirSync(userDir, { recursive: true });
    writeFileSync(join(userDir, 'config.json'), '{"model": "user-model", "theme": "light", "allow": ["bash:ls"]}');
    const project = tempDirForTest('tole-project-');
    writeFileSync(join(project, 'tole.config.json'), '{"model": "project-model", "allow": ["bash:npm test"]}');
    const { config, files } = loadConfig(project, { HOME: home }, { trust: true });
    expect(files).toHaveLength(2);
    expect(config.model).toBe('project-model');
    expect(config.theme).toBe('light');
    expect(config.allow).toEqual(['bash:ls', 'bash:npm test']);
  });
});
