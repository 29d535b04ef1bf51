/**
 * A module the tests share (anything under test/ that is not a test file) registers no vitest hook
 * at its top: the unit and screen tiers run with `isolate: false`, so a worker loads such a module
 * once and the hook belongs to the first test file that imported it alone. The temp directories of
 * every later file were left in /tmp (about 20,000 of them on this machine). A shared module undoes
 * what a test made with `afterTheTest` / `tempDirForTest` (test/support/after-the-test.ts), or
 * offers a function the test file calls, whose hooks then belong to that file. A setup file that
 * vitest.config.ts names is the exception: vitest evaluates it again before every test file, so its
 * hooks belong to each file in turn.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo-root';

const HOOKS = new Set(['beforeAll', 'beforeEach', 'afterAll', 'afterEach']);
const SETUP_FILES = [
  'test/support/git-shims-removed.ts',
  'test/support/process-state-kept.ts',
  'test/support/tmpdir-per-file.ts',
];

function sharedModules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sharedModules(path);
    return /\.(ts|tsx|mts)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The hooks a module's top-level statements call: `name:line hook`. */
function topLevelHooks(name: string, source: string): string[] {
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isExpressionStatement(statement) || !ts.isCallExpression(statement.expression)) continue;
    const callee = statement.expression.expression;
    if (ts.isIdentifier(callee) && HOOKS.has(callee.text))
      found.push(`${name}:${file.getLineAndCharacterOfPosition(statement.getStart()).line + 1} ${callee.text}`);
  }
  return found;
}

describe('shared test modules', () => {
  it('register no hook at their top', () => {
    const found = sharedModules(join(REPO_ROOT, 'test'))
      .filter((path) => !SETUP_FILES.includes(relative(REPO_ROOT, path)))
      .flatMap((path) => topLevelHooks(relative(REPO_ROOT, path), readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });

  it('leaves alone only the setup files vitest.config.ts names', () => {
    const config = readFileSync(join(REPO_ROOT, 'vitest.config.ts'), 'utf8');
    for (const file of SETUP_FILES) expect(config).toMatch(new RegExp(`setupFiles: \\[[^\\]]*'${file}'`));
  });

  it('the check sees a hook at the top, and leaves one inside a function alone', () => {
    const source = [
      "import { afterEach, beforeEach } from 'vitest';",
      'afterEach(() => {});',
      'export function perTest() {',
      '  beforeEach(() => {});',
      '}',
    ].join('\n');
    expect(topLevelHooks('fixture.ts', source)).toEqual(['fixture.ts:2 afterEach']);
  });
});
