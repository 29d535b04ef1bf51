import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const tuiDir = join(root, 'src', 'tui');
const cliDir = join(root, 'src', 'cli');

/**
 * The session writes a screen or the command line may not make itself: they go through
 * `SessionCommands` (core), which refuses what the session's state does not allow (a turn runs,
 * read-only, no such entry, a call a stop cut short).
 */
const STORE_WRITERS = new Set([
  'checkout',
  'setLabel',
  'nameSession',
  'restoreFiles',
  'resumeRestore',
  'recordSessionFact',
  'AppendBatch',
]);

/**
 * What only the runner of turns (screen/turn-controller.ts) may call: the rest of the screen sends,
 * steers and queues prompts through `SessionCommands.send` and `takeQueued`, which refuse what the
 * running work does not allow.
 */
const RUNNER_ONLY = new Set(['steer', 'takeSteering', 'enqueue', 'dequeue']);
const RUNNER = 'screen/turn-controller.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Where a source imports a store writer from core, or calls `.commit(` on anything: one line per finding. */
function storeWrites(name: string, source: string): string[] {
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const where = (node: ts.Node): string => `${name}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const fromCore = /(^|\/)core\//.test(node.moduleSpecifier.text);
      const bindings = node.importClause?.namedBindings;
      if (fromCore && bindings && ts.isNamedImports(bindings) && !node.importClause.isTypeOnly)
        for (const element of bindings.elements) {
          const imported = (element.propertyName ?? element.name).text;
          if (STORE_WRITERS.has(imported) && !element.isTypeOnly)
            found.push(`${where(element)} imports ${imported} from ${node.moduleSpecifier.text}`);
        }
      if (fromCore && bindings && ts.isNamespaceImport(bindings))
        found.push(`${where(node)} imports all of ${node.moduleSpecifier.text}`);
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      if (method === 'commit' || (RUNNER_ONLY.has(method) && name !== RUNNER))
        found.push(`${where(node)} calls ${node.expression.getText(file)}(…)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function writesIn(dir: string): string[] {
  return sourceFiles(dir).flatMap((path) =>
    storeWrites(relative(dir, path).split(sep).join('/'), readFileSync(path, 'utf8')),
  );
}

describe('the screen and the command line write the session only through its commands', () => {
  it('no file in src/tui imports a store writer from core, commits to a store, or steers or queues past the commands', () => {
    expect(writesIn(tuiDir)).toEqual([]);
  });

  it('no file in src/cli does either (tole restore asks the commands as the screen does)', () => {
    expect(writesIn(cliDir)).toEqual([]);
  });

  it('catches the ways a screen file could write: a named import, a renamed one, a namespace, a commit, a runner call', () => {
    const source = [
      "import { checkout } from '../core/session/cursor';",
      "import { setLabel as label } from '../core/session/labels';",
      "import * as names from '../core/session/session-name';",
      "import { labelOf } from '../core/session/labels';",
      "import type { RestoreOutcome } from '../core/session/restore-files';",
      'ctx.store.commit([]);',
      'ctx.turns.steer(text);',
      'ctx.turns.enqueue(text);',
      'ctx.turns.dequeue(0);',
      'agent.takeSteering();',
      'ctx.session.send(text);',
    ].join('\n');
    expect(storeWrites('key-handler.ts', source)).toEqual([
      'key-handler.ts:1 imports checkout from ../core/session/cursor',
      'key-handler.ts:2 imports setLabel from ../core/session/labels',
      'key-handler.ts:3 imports all of ../core/session/session-name',
      'key-handler.ts:6 calls ctx.store.commit(…)',
      'key-handler.ts:7 calls ctx.turns.steer(…)',
      'key-handler.ts:8 calls ctx.turns.enqueue(…)',
      'key-handler.ts:9 calls ctx.turns.dequeue(…)',
      'key-handler.ts:10 calls agent.takeSteering(…)',
    ]);
    expect(storeWrites(RUNNER, 'this.options.agent.steer(text);\nthis.options.agent.takeSteering();')).toEqual([]);
  });
});
