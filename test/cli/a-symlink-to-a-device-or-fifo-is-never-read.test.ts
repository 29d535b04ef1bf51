/**
 * A repository cannot hold a FIFO or a device, but it can hold a symlink to one (/dev/null,
 * /dev/tty, /dev/zero, a FIFO someone made): the files tole reads from a workspace at start are
 * read only when they are regular files, since a FIFO or a terminal waits forever and /dev/zero
 * never ends. /dev/null stands in for the devices here: read, it gives '' at once, so a reader
 * that does not check takes it for an empty file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/cli/config';
import { loadInstructions } from '../../src/cli/instructions';
import { loadPromptTemplates } from '../../src/cli/prompt-templates';
import { readRegularFile } from '../../src/core/regular-file';
import { tempDirForTest } from '../support/after-the-test';

describe.skipIf(process.platform === 'win32')('a workspace file that is a symlink to a device or a FIFO', () => {
  it('readRegularFile refuses a FIFO, a device and a directory without waiting, and reads a file', () => {
    const dir = tempDirForTest('tole-not-a-file-');
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    for (const path of [fifo, '/dev/null', dir]) {
      expect(() => readRegularFile(path), path).toThrowError(expect.objectContaining({ code: 'ENOTREG' }));
    }
    writeFileSync(join(dir, 'plain'), 'text');
    expect(readRegularFile(join(dir, 'plain')).toString()).toBe('text');
  });

  it('a project prompt template linked to a device is no template', () => {
    const ws = tempDirForTest('tole-not-a-file-ws-');
    mkdirSync(join(ws, '.tole', 'prompts'), { recursive: true });
    symlinkSync('/dev/null', join(ws, '.tole', 'prompts', 'device.md'));
    writeFileSync(join(ws, '.tole', 'prompts', 'plain.md'), 'Say hello.\n');
    const env = { HOME: ws, XDG_CONFIG_HOME: join(ws, 'config') };
    const names = loadPromptTemplates(env, ws, true, new Set()).map((template) => template.name);
    expect(names).toEqual(['plain']);
  });

  it('an AGENTS.md linked to a device is not read, and a tole.config.json linked to one is refused as not a file', () => {
    const ws = tempDirForTest('tole-not-a-file-ws-');
    symlinkSync('/dev/null', join(ws, 'AGENTS.md'));
    const instructions = loadInstructions(ws, join(ws, 'config'));
    expect(instructions.files).toEqual([]);
    symlinkSync('/dev/null', join(ws, 'tole.config.json'));
    const env = { HOME: ws, XDG_CONFIG_HOME: join(ws, 'config'), TOLE_HOME: join(ws, 'home') };
    expect(() => loadConfig(ws, env)).toThrowError(/not a regular file/);
  });
});
