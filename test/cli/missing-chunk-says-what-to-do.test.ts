/**
 * The build splits tole into dist/tole.js and chunks loaded on first use. A chunk that is not
 * there (an install or build cut short) must end tole with one line that says what to do, not a
 * Node stack trace or an "internal error".
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/built-tole';
import { REPO_ROOT } from '../support/repo-root';
import { tempDirForFile } from '../support/after-the-test';

const copy = tempDirForFile('tole-missing-chunk-');

/** A copy of the built dist/ with the chunks whose names start with these removed (and the scripts named so: `headless.cjs`). */
function distWithout(...prefixes: string[]): string {
  const dist = join(copy, `dist-${prefixes.join('-')}`);
  cpSync(join(REPO_ROOT, 'dist'), dist, { recursive: true });
  for (const name of readdirSync(join(dist, 'chunks'))) {
    if (prefixes.some((prefix) => new RegExp(`^${prefix}-[A-Z0-9]+\\.js$`).test(name)))
      rmSync(join(dist, 'chunks', name));
  }
  for (const name of prefixes.filter((prefix) => prefix.endsWith('.cjs'))) rmSync(join(dist, name));
  return join(dist, 'tole.js');
}

function run(toleJs: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const child = spawnSync(process.execPath, [toleJs, ...args], {
    cwd: copy,
    env: { ...process.env, HOME: copy, TOLE_HOME: join(copy, 'tole-home'), OPENAI_API_KEY: 'sk-test' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 20_000,
  });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

beforeAll(() => {
  ensureBuilt();
});

describe('a chunk of the build that is missing', () => {
  it("the command's own chunk: one line naming the file and saying to rebuild, exit 1", () => {
    const run1 = run(distWithout('headless-loader'), ['-p', 'hi']);
    expect(run1.code).toBe(1);
    expect(run1.stderr).toMatch(
      /^tole: this install of tole is incomplete: .*headless-loader-[A-Z0-9]+\.js.*npm run build/,
    );
    expect(run1.stderr.trim().split('\n')).toHaveLength(1);
  });

  it("the command's script (dist/headless.cjs): one line naming it, exit 1", () => {
    const run1 = run(distWithout('headless.cjs'), ['-p', 'hi']);
    expect(run1.code).toBe(1);
    expect(run1.stderr).toMatch(/^tole: this install of tole is incomplete: .*headless\.cjs.*npm run build/);
    expect(run1.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('the error classes too: still one line, no stack trace', () => {
    const run2 = run(distWithout('headless-loader', 'config', 'errors'), ['-p', 'hi']);
    expect(run2.code).toBe(1);
    expect(run2.stderr).toMatch(/^tole: this install of tole is incomplete: /);
    expect(run2.stderr).not.toMatch(/node:internal|at .*\(/);
    expect(run2.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--help and --version load no chunk: they work all the same', () => {
    const toleJs = distWithout('headless-loader', 'headless.cjs', 'config', 'errors', 'tui-command');
    expect(run(toleJs, ['--help']).stdout).toMatch(/^tole: a durable AI agent/);
    expect(run(toleJs, ['--version']).stdout).toMatch(/^tole \d/);
  });
});
