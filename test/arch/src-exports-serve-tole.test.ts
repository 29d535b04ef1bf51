/**
 * Every value src exports serves tole itself: tole's code (another src file, the file's own code,
 * or a build script that splices it into a dependency) uses it. An export nothing in tole uses is
 * dead code kept alive by its tests; the few that exist for tests alone (a cache a test empties, a
 * count it reads) are declared below with what they are for.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/repo-root';

/** Exports only tests use, each with why tole keeps it. */
const FOR_TESTS: Record<string, string> = {
  'cli/session-temp-dir.ts removeSessionTempDir': 'removes a session temp dir a test made (tole removes them at exit)',
  'core/storage/replayed-entry.ts dropPayloads':
    'drops every parsed payload, to compare a lazy replay with an eager one',
  'core/tools/sandbox.ts detectSandbox':
    'tells a test file at load whether bubblewrap works here (tole tries it without blocking)',
  'core/tools/tool-fs.ts setToolFs': "replaces the file tools' calls to inject faults",
  'tui/frame/ink-coupling.ts INK_CHECKED_VERSION':
    'the Ink version the renderer was checked against, which a test compares',
  'core/git-config-kept.ts forgetKeptOutputs': 'empties the kept config reads between cases',
  'core/git-config-kept.ts outputRuns': 'counts config reads, to show one was kept',
  'core/git-folder-listings.ts forgetFolderListings': 'empties the kept folder listings between cases',
  'core/git-folder-listings.ts isListingKept': 'shows a folder listing was kept',
  'core/git-repo-drivers.ts neutralSettings': 'the settings the vetting gives, for key names a test makes',
  'core/storage/sqlite-driver.ts sqliteUnavailableReason': 'skips the SQLite cases where Node has no SQLite',
  'core/sync/database.ts isSyncError': 'tells a sync error from another in a test',
  'core/tools/git-shim.ts removeGitShims':
    'removes the git shims a test file wrote (a worker thread ends with no exit)',
  'tui/frame/ink-kept-walk.ts keepWalks': 'turns the kept walk off, to compare with a whole walk',
  'tui/frame/ink-output.ts clearOutputCaches': "empties the output stage's caches, to compare cold and warm",
  'tui/frame/ink-output.ts tokenizeLine': "compared with Ink's own tokenizer",
  'tui/text/markdown-lines.ts clearMarkdownMemo': 'empties the markdown memo between cases',
};

const srcDir = join(REPO_ROOT, 'src');

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

/** How many times each identifier occurs in `file`'s code (comments and strings left out). */
function identifiers(file: ts.SourceFile): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) counts.set(node.text, (counts.get(node.text) ?? 0) + 1);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return counts;
}

/** The values `source` exports by declaration (functions, classes, constants, enums): not types. */
function exportedValues(file: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of file.statements) {
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
      statement.name
    )
      names.push(statement.name.text);
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
  }
  return names;
}

/** `file name` for each exported value nothing in tole uses (FOR_TESTS aside). */
function unusedExports(
  files: readonly { readonly name: string; readonly source: string }[],
  scripts: readonly string[],
): string[] {
  const counted = files.map((file) => {
    const kind = file.name.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const parsed = ts.createSourceFile(file.name, file.source, ts.ScriptTarget.Latest, true, kind);
    return { name: file.name, parsed, ids: identifiers(parsed) };
  });
  const elsewhere = (name: string, except: string): boolean =>
    counted.some((file) => file.name !== except && (file.ids.get(name) ?? 0) > 0) ||
    scripts.some((script) => new RegExp(`\\b${name}\\b`).test(script));
  return counted.flatMap((file) =>
    exportedValues(file.parsed)
      .filter((name) => (file.ids.get(name) ?? 0) <= 1 && !elsewhere(name, file.name))
      .map((name) => `${file.name} ${name}`),
  );
}

describe('what src exports', () => {
  const files = filesUnder(srcDir, /\.tsx?$/).map((path) => ({
    name: relative(srcDir, path).split(sep).join('/'),
    source: readFileSync(path, 'utf8'),
  }));
  const scripts = filesUnder(join(REPO_ROOT, 'scripts'), /\.m?[jt]s$/).map((path) => readFileSync(path, 'utf8'));

  it("is used by tole's own code, or declared as for tests with what it is for", () => {
    const unused = unusedExports(files, scripts).filter((entry) => !(entry in FOR_TESTS));
    expect(unused, 'remove each, or declare it in FOR_TESTS with what tests need it for').toEqual([]);
  });

  it('declares for tests only what tole itself does not use', () => {
    const unused = new Set(unusedExports(files, scripts));
    expect(Object.keys(FOR_TESTS).filter((entry) => !unused.has(entry))).toEqual([]);
  });

  it('finds an export used nowhere, or only in a comment or a string, and not one used in its file or elsewhere', () => {
    const made = [
      {
        name: 'a.ts',
        source:
          'export function dead() {}\nexport const alive = 1;\nexport function local() {}\nlocal();\n// dead\nconst s = "dead";\n',
      },
      { name: 'b.tsx', source: "import { alive } from './a';\nexport const View = () => <Box>{alive}</Box>;\n" },
      { name: 'c.tsx', source: "import { View } from './b';\nexport const Shown = () => <View />;\n" },
    ];
    expect(unusedExports(made, [])).toEqual(['a.ts dead', 'c.tsx Shown']);
    expect(unusedExports(made, ['import { dead } from "x";'])).toEqual(['c.tsx Shown']);
  });
});
