/**
 * Tests make their temp directories through test/support/after-the-test.ts: `tempDirForTest`
 * (removed when the test ends) or `tempDirForFile` (removed when the file ends). A directory made by
 * hand with mkdtemp, or a path built on `tmpdir()`, was removed only when its file remembered to,
 * often only when the test passed, or by an `afterEach` in a shared module that belonged to another
 * file: the suite left thousands of directories in /tmp on this machine. The files below do it by
 * hand for a reason the list names; every other file goes through the helpers.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo-root';

/** Files that make or name a temp directory by hand, each with why it must. */
const JUSTIFIED: ReadonlyMap<string, string> = new Map([
  ['test/support/after-the-test.ts', 'the helpers themselves'],
  ['test/support/tmpdir-per-file.ts', "the process tiers' directory of each file, which TMPDIR points into"],
  ['test/support/run-tmpdir.ts', "a tier's directory, made in its global setup and removed in its teardown"],
  [
    'test/support/shared-code-cache.ts',
    "the run's code cache, made in the global setup (no test or file running) and removed in its teardown",
  ],
  [
    'test/support/made-once-per-file.ts',
    "what a file's tests all copy, made once in the file's own TMPDIR (tmpdir-per-file.ts), which goes when the file ends",
  ],
  ['test/support/made-once-per-file.test.ts', "checks that what is made once lives in tmpdir(), the file's own"],
  ['test/e2e/children-leave-their-temp-files-in-the-test-file.e2e.test.ts', 'checks that tmpdir() is that directory'],
  ['test/support/after-the-test.test.ts', 'checks that a refused tempDirForTest left nothing in tmpdir()'],
  [
    'test/arch/tests-make-temp-dirs-through-the-helpers.test.ts',
    'this rule: its own check is shown mkdtemp and tmpdir()',
  ],
  [
    'test/adversarial/corpus/world-template.ts',
    'the worlds live outside /tmp on purpose (the sandbox shows them read-only); the template is made once per process',
  ],
  [
    'test/adversarial/corpus/world.ts',
    "a world's folder under the host's /tmp is made in the suite's beforeAll, where no helper can tell when it goes; world.remove() removes it in afterAll, and in the process tier it is in the file's TMPDIR",
  ],
  [
    'test/sim/sim-workspaces.ts',
    "the simulator's workspaces are in /dev/shm, named for their process, removed at exit and swept when that process is gone",
  ],
  [
    'test/support/postgres-server.ts',
    "a server's data directory lives as long as the server, which a beforeAll starts; destroy() removes it, and in the process tier it is in the file's TMPDIR",
  ],
  [
    'test/integration/project-hooks-run-in-the-sandbox.test.ts',
    'its directory is outside /tmp on purpose (the sandbox shows it read-only instead of hiding it); removed in afterAll',
  ],
]);

const BY_HAND: readonly [RegExp, string][] = [
  [/\bmkdtemp(Sync)?\s*\(/, 'mkdtemp'],
  [/\btmpdir\s*\(\s*\)/, 'tmpdir()'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(name) ? [path] : [];
  });
}

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** What `source` uses to make a temp directory by hand, by the names in BY_HAND. */
function handMadeTempDirs(source: string): string[] {
  const code = withoutComments(source);
  return BY_HAND.filter(([pattern]) => pattern.test(code)).map(([, name]) => name);
}

describe('temp directories in the tests', () => {
  const files = sourceFiles(join(REPO_ROOT, 'test')).map((path) => relative(REPO_ROOT, path));
  const byHand = new Map(
    files.map((file) => [file, handMadeTempDirs(readFileSync(join(REPO_ROOT, file), 'utf8'))] as const),
  );

  it('are made through tempDirForTest or tempDirForFile, outside the justified files', () => {
    const offences = [...byHand]
      .filter(([file, uses]) => uses.length > 0 && !JUSTIFIED.has(file))
      .map(
        ([file, uses]) =>
          `${file} uses ${uses.join(' and ')}: make the directory with tempDirForTest(prefix) in the test, or tempDirForFile(prefix) at the file's top (test/support/after-the-test.ts)`,
      );
    expect(offences).toEqual([]);
  });

  it('each listed file exists and still makes one by hand (a converted file leaves the list)', () => {
    const stale = [...JUSTIFIED.keys()]
      .filter((file) => (byHand.get(file) ?? []).length === 0)
      .map((file) => `${file} is listed but makes no temp directory by hand: take it off the list`);
    expect(stale).toEqual([]);
  });

  it('the check sees mkdtemp, mkdtempSync and tmpdir(), and not a mention in a comment', () => {
    expect(handMadeTempDirs("const d = mkdtempSync(join(tmpdir(), 'x-'));")).toEqual(['mkdtemp', 'tmpdir()']);
    expect(handMadeTempDirs("const d = await mkdtemp(join(os.tmpdir (), 'x-'));")).toEqual(['mkdtemp', 'tmpdir()']);
    expect(handMadeTempDirs("// mkdtempSync(join(tmpdir(), 'x-'))\nconst d = tempDirForTest('x-');")).toEqual([]);
  });
});
