/**
 * The vitest projects (vitest.config.ts) take their files from test/support/tiers.ts: a file lands
 * in the tier of what it, or a test module it imports, uses.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirForFile } from '../support/after-the-test';
import { REPO_ROOT } from '../support/repo-root';
import { filesByTier, tierOf } from '../support/tiers';

const root = tempDirForFile('tole-tiers-');

function write(path: string, text: string): string {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  return path;
}

describe('a test file’s tier', () => {
  it('is process when it or a support module it imports, at any depth, starts processes or threads', () => {
    write('test/support/spawner.ts', "import { spawn } from 'node:child_process';\n");
    write('test/support/middle.ts', "export { x } from './spawner';\n");
    write('test/support/pure.ts', 'export const x = 1;\n');
    expect(tierOf(root, write('test/core/a.test.ts', "import { x } from '../support/middle';\n"))).toBe('process');
    expect(tierOf(root, write('test/core/b.test.ts', "import { Worker } from 'node:worker_threads';\n"))).toBe(
      'process',
    );
    expect(tierOf(root, write('test/core/c.test.ts', "import { spawn } from 'node-pty';\n"))).toBe('process');
    expect(tierOf(root, write('test/core/d.test.ts', "const m = await import('../support/spawner');\n"))).toBe(
      'process',
    );
    expect(tierOf(root, write('test/core/e.test.ts', "import { x } from '../support/pure';\n"))).toBe('unit');
  });

  it('is process for everything in test/e2e and test/sim', () => {
    expect(tierOf(root, write('test/e2e/f.e2e.test.ts', 'export {};\n'))).toBe('process');
    expect(tierOf(root, write('test/sim/g.test.ts', 'export {};\n'))).toBe('process');
  });

  it('is process-isolated when it starts processes and would leave state behind for the next file of its fork', () => {
    write('test/support/spawns.ts', "import { spawn } from 'node:child_process';\n");
    const spawning = "import { x } from '../support/spawns';\n";
    expect(tierOf(root, write('test/cli/m.test.ts', `${spawning}vi.mock('../../src/core/clock');\n`))).toBe(
      'process-isolated',
    );
    expect(tierOf(root, write('test/cli/n.test.ts', `${spawning}process.env.TOLE_HOME = dir;\n`))).toBe(
      'process-isolated',
    );
    expect(tierOf(root, write('test/cli/o.test.ts', `${spawning}process.env['HOME'] = dir;\n`))).toBe(
      'process-isolated',
    );
    expect(tierOf(root, write('test/cli/p.test.ts', `${spawning}delete process.env.HOME;\n`))).toBe('process-isolated');
    expect(tierOf(root, write('test/e2e/q.e2e.test.ts', 'process.chdir(dir);\n'))).toBe('process-isolated');
    expect(tierOf(root, write('test/sim/r.test.ts', "vi.stubEnv('HOME', dir);\n"))).toBe('process-isolated');
    // A command in a string changes the child that runs it: nothing of this process.
    expect(
      tierOf(
        root,
        write(
          'test/cli/t.test.ts',
          `${spawning}run(\`node -e 'delete process.env.HOME; process.env.X = 1; process.chdir("/")'\`);\nrun("delete process.env.HOME");\n`,
        ),
      ),
    ).toBe('process');
    // A quote in a comment does not hide a change after it.
    expect(
      tierOf(
        root,
        write('test/cli/u.test.ts', `${spawning}// tole's home\nprocess.env.TOLE_HOME = 'x'; // it's set\n`),
      ),
    ).toBe('process-isolated');
    // Reading the environment, or passing it to a child, leaves nothing behind.
    expect(
      tierOf(root, write('test/cli/s.test.ts', `${spawning}if (process.env.CI === '1') run({ env: process.env });\n`)),
    ).toBe('process');
  });

  it('is screen for a .tsx file or one that imports ink, react or ink-testing-library', () => {
    expect(tierOf(root, write('test/tui/h.test.tsx', 'export {};\n'))).toBe('screen');
    write('test/tui/harness.tsx', "import { render } from 'ink';\n");
    expect(tierOf(root, write('test/tui/i.test.ts', "import { mount } from './harness';\n"))).toBe('screen');
    expect(tierOf(root, write('test/tui/j.test.ts', "import { render } from 'ink-testing-library';\n"))).toBe('screen');
  });

  it('is process-screen when it starts processes and renders through Ink, so that it mounts the renderer that ships', () => {
    write('test/support/spawns-too.ts', "import { spawn } from 'node:child_process';\n");
    write('test/tui/harness.tsx', "import { render } from 'ink';\n");
    const spawning = "import { x } from '../support/spawns-too';\n";
    expect(tierOf(root, write('test/tui/v.test.tsx', spawning))).toBe('process-screen');
    expect(tierOf(root, write('test/tui/w.test.ts', `${spawning}import { mount } from './harness';\n`))).toBe(
      'process-screen',
    );
    expect(tierOf(root, write('test/e2e/x.e2e.test.ts', "import { render } from 'ink-testing-library';\n"))).toBe(
      'process-screen',
    );
    // Leaving state behind still takes a fork of its own.
    expect(tierOf(root, write('test/tui/y.test.tsx', `${spawning}process.chdir(dir);\n`))).toBe('process-isolated');
  });

  it('is isolated when it replaces a module, which would leak into the files after it in a shared worker', () => {
    expect(tierOf(root, write('test/tui/k.test.tsx', "vi.mock('../../src/tui/text/format');\n"))).toBe('isolated');
    expect(tierOf(root, write('test/core/l.test.ts', "vi.doMock('../../src/core/clock');\n"))).toBe('isolated');
  });

  it('puts every test file of the repository in exactly one tier', () => {
    const tiers = filesByTier(REPO_ROOT);
    const all = Object.values(tiers).flat();
    expect(new Set(all).size).toBe(all.length);
    expect(tiers.process).toContain('test/core/storage/conformance/one-writer-per-session.test.ts');
    expect(tiers.unit).toContain('test/arch/test-files-land-in-their-tier.test.ts');
    expect(tiers.screen).toContain('test/tui/cost-command.test.tsx');
    expect(tiers['process-screen']).toContain('test/tui/locked-session-opens-read-only.test.tsx');
  });
});
