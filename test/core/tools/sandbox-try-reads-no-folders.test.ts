/**
 * The sandbox try at start (a command that changes nothing) looks for nothing to keep read-only:
 * with the workspace it is given (/), the search for nested repositories read up to 1,000 folders
 * before every first frame (200-300 ms of CPU). A real command's confinement still searches.
 */
import * as fs from 'node:fs';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { confinedCommand, detectSandboxSoon } from '../../../src/core/tools/sandbox';
import { tempDirForFile } from '../../support/after-the-test';

const reads = vi.hoisted(() => ({ dirs: [] as string[] }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const readdirSync = ((path: fs.PathLike, ...rest: unknown[]) => {
    reads.dirs.push(String(path));
    return (actual.readdirSync as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof actual.readdirSync;
  return { ...actual, default: { ...actual, readdirSync }, readdirSync };
});

const dir = tempDirForFile('tole-sandbox-try-');

describe('the sandbox try at start', () => {
  it('reads no folder, and binds nothing read-only but the root', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const argsFile = join(dir, 'args');
    writeFileSync(join(bin, 'bwrap'), `#!/bin/sh\necho "$@" > '${argsFile}'\nexit 0\n`);
    chmodSync(join(bin, 'bwrap'), 0o755);
    reads.dirs.length = 0;
    expect(await detectSandboxSoon('linux', bin)).toEqual({ kind: 'bwrap', program: join(bin, 'bwrap') });
    expect(reads.dirs).toEqual([]);
    const args = fs.readFileSync(argsFile, 'utf8').trim().split(' ');
    expect(args.filter((arg) => arg === '--ro-bind')).toHaveLength(1);
  });

  it('still keeps a nested repository read-only in a real command', () => {
    const workspace = join(dir, 'workspace');
    mkdirSync(join(workspace, 'vendor', 'lib', '.git'), { recursive: true });
    const command = confinedCommand(
      { kind: 'bwrap', program: '/usr/bin/bwrap' },
      { workspaceRoot: workspace, tempDir: dir, network: false },
      ['true'],
    );
    const nested = join(workspace, 'vendor', 'lib', '.git');
    expect(command.args.join(' ')).toContain(`--ro-bind ${nested} ${nested}`);
  });
});
