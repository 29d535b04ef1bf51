import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const coreDir = join(root, 'src', 'core');

/** The most lines a file in src/core may hold: past it, a file holds more than one idea. */
const MAX_LINES = 500;

/**
 * Data tables, the one kind of core file allowed past the limit: what they hold is a list, not logic.
 * command-rules.ts is the table of shell commands and how risky each form of them is.
 */
const DECLARED_DATA_TABLES = new Set(['approval/command-rules.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|js)$/.test(name) ? [path] : [];
  });
}

function linesOf(path: string): number {
  return readFileSync(path, 'utf8').split('\n').length;
}

describe(`src/core files stay under ${MAX_LINES} lines`, () => {
  const files = sourceFiles(coreDir).map((path) => ({
    name: relative(coreDir, path).split(sep).join('/'),
    lines: linesOf(path),
  }));

  it('every file past the limit is a declared data table', () => {
    const tooLong = files
      .filter(({ name, lines }) => lines > MAX_LINES && !DECLARED_DATA_TABLES.has(name))
      .map(({ name, lines }) => `src/core/${name}: ${lines} lines (split it by idea, or declare it a data table here)`);
    expect(tooLong).toEqual([]);
  });

  it('each declared data table still exists', () => {
    const names = new Set(files.map(({ name }) => name));
    expect([...DECLARED_DATA_TABLES].filter((name) => !names.has(name))).toEqual([]);
  });
});
