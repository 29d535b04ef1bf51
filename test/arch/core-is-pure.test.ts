import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const coreDir = join(root, 'src', 'core');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|js)$/.test(name) ? [path] : [];
  });
}

const FORBIDDEN_MODULES = [
  /^ink(\/|$)/,
  /^ink-/,
  /^react(\/|$|-)/,
  /^chalk(\/|$)/,
  /(^|\/)tui(\/|$)/,
  /(^|\/)cli(\/|$)/,
];
const FORBIDDEN_CODE: [RegExp, string][] = [
  [/\bprocess\.stdout\b/, 'process.stdout'],
  [/\bprocess\.stdin\b/, 'process.stdin'],
  [/\bprocess\.stderr\b/, 'process.stderr'],
  [/\bprocess\.exit\b/, 'process.exit'],
  [/\bconsole\s*\./, 'console'],
];

/** Module specifiers of static imports, re-exports, dynamic imports and require calls. */
function importsOf(source: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) specs.push(m[1]!);
  return specs;
}

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('src/core stays pure', () => {
  const files = sourceFiles(coreDir);

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('imports nothing that touches the terminal, nor anything from tui or cli', () => {
    const offences: string[] = [];
    for (const file of files) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (FORBIDDEN_MODULES.some((re) => re.test(spec))) offences.push(`${relative(root, file)} imports ${spec}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it('never uses process.stdout, stdin, exit or console', () => {
    const offences: string[] = [];
    for (const file of files) {
      const code = withoutComments(readFileSync(file, 'utf8'));
      for (const [pattern, name] of FORBIDDEN_CODE)
        if (pattern.test(code)) offences.push(`${relative(root, file)} uses ${name}`);
    }
    expect(offences).toEqual([]);
  });

  it('the checker itself catches a forbidden import and a console call', () => {
    const sample =
      "import { render } from 'ink';\nimport x from '../../tui/app';\nconst c = await import('chalk');\nconsole.log(1);";
    const specs = importsOf(sample);
    expect(specs).toEqual(expect.arrayContaining(['ink', '../../tui/app', 'chalk']));
    expect(specs.filter((s) => FORBIDDEN_MODULES.some((re) => re.test(s)))).toHaveLength(3);
    expect(FORBIDDEN_CODE.some(([re]) => re.test(withoutComments(sample)))).toBe(true);
  });
});
