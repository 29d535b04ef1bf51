import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../../src/core/approval/command-risk';
import type { Risk } from '../../../src/core/approval/risk';

interface Corpus {
  /** Paths that exist for every case (relative to an imaginary workspace). */
  readonly existing: readonly string[];
  readonly directories: readonly string[];
  readonly cases: readonly { readonly command: string; readonly risk: Risk; readonly note?: string }[];
}

const corpus = JSON.parse(readFileSync(join(import.meta.dirname, 'command-corpus.json'), 'utf8')) as Corpus;
const existing = new Set(corpus.existing);
const directories = new Set(corpus.directories);
const opts = { exists: (path: string) => existing.has(path), isDirectory: (path: string) => directories.has(path) };

/** The bypasses the product brief names: the corpus must keep every one of them. */
const REQUIRED_DESTRUCTIVE = [
  "r''m -rf x",
  '\\rm -rf x',
  'command rm -rf x',
  'bash -c "rm -rf x"',
  'echo hi; rm -rf x',
  '$(echo rm) -rf x',
  'find . -delete',
  'xargs rm < list',
  'FOO=1 rm -rf x',
  'sudo -u me rm -rf x',
  'git -C repo push --force',
  ': > important.txt',
];

describe('the command corpus', () => {
  it('is large and keeps every bypass the brief names as Destructive', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(100);
    const byCommand = new Map(corpus.cases.map((c) => [c.command, c.risk]));
    for (const command of REQUIRED_DESTRUCTIVE) expect(byCommand.get(command), command).toBe('Destructive');
    for (const risk of ['ReadOnly', 'Write', 'Destructive'] as const) {
      expect(corpus.cases.filter((c) => c.risk === risk).length, risk).toBeGreaterThanOrEqual(30);
    }
  });

  it('has no command listed twice', () => {
    const seen = new Set<string>();
    const twice = corpus.cases.filter((c) => seen.size === seen.add(c.command).size).map((c) => c.command);
    expect(twice).toEqual([]);
  });

  it('classifies every command line at its expected tier', () => {
    const mismatches = corpus.cases.flatMap((c) => {
      const got = classifyCommand(c.command, opts);
      return got.risk === c.risk
        ? []
        : [`${JSON.stringify(c.command)}: expected ${c.risk}, got ${got.risk} (${got.reason})`];
    });
    expect(mismatches, `${mismatches.length} mismatches:\n${mismatches.join('\n')}`).toEqual([]);
  });
});
