import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOB_MAX_RESULTS, globToRegExp, globTool, staticPrefix } from '../../../src/core/tools/builtin/glob';
import { tempWorkspace } from './temp-workspace';

async function makeFiles(root: string, files: string[]): Promise<void> {
  for (const file of files) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), file);
  }
}

const FILES = [
  'package.json',
  'README.md',
  'src/index.ts',
  'src/core/a.ts',
  'src/core/b.tsx',
  'src/core/deep/c.ts',
  'test/a1.test.ts',
  'test/a22.test.ts',
  '.git/config.ts',
  'node_modules/pkg/index.ts',
  'src/node_modules/x.ts',
];

describe('glob', () => {
  it('matches ** across directories, skipping .git and node_modules', async () => {
    const ws = await tempWorkspace();
    await makeFiles(ws.root, FILES);
    const out = await globTool.execute({ pattern: '**/*.ts' }, ws.ctx);
    expect(out).toEqual({
      ok: true,
      content: ['src/core/a.ts', 'src/core/deep/c.ts', 'src/index.ts', 'test/a1.test.ts', 'test/a22.test.ts'].join(
        '\n',
      ),
    });
  });

  it('matches *, ? and {a,b} within a segment', async () => {
    const ws = await tempWorkspace();
    await makeFiles(ws.root, FILES);
    expect((await globTool.execute({ pattern: '*.{json,md}' }, ws.ctx)).content).toBe('README.md\npackage.json');
    expect((await globTool.execute({ pattern: 'test/a?.test.ts' }, ws.ctx)).content).toBe('test/a1.test.ts');
    expect((await globTool.execute({ pattern: 'src/core/*.{ts,tsx}' }, ws.ctx)).content).toBe(
      'src/core/a.ts\nsrc/core/b.tsx',
    );
    expect((await globTool.execute({ pattern: 'src/**' }, ws.ctx)).content.split('\n')).toHaveLength(4);
  });

  it('says when nothing matches', async () => {
    const ws = await tempWorkspace();
    expect(await globTool.execute({ pattern: 'nothing/**/*.rs' }, ws.ctx)).toEqual({
      ok: true,
      content: 'No files match nothing/**/*.rs.',
    });
  });

  it(`stops at ${GLOB_MAX_RESULTS} results and says so`, async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'many'));
    await Promise.all(
      Array.from({ length: GLOB_MAX_RESULTS + 50 }, (_, i) => writeFile(path.join(ws.root, 'many', `f${i}.txt`), '')),
    );
    const out = await globTool.execute({ pattern: 'many/*.txt' }, ws.ctx);
    const lines = out.content.split('\n');
    expect(lines).toHaveLength(GLOB_MAX_RESULTS + 1);
    expect(lines.at(-1)).toContain(`stopped at 1,000 matches`);
  });

  it('refuses a pattern that leaves the workspace', async () => {
    const ws = await tempWorkspace();
    expect((await globTool.execute({ pattern: '../outside/*' }, ws.ctx)).ok).toBe(false);
    expect((await globTool.execute({ pattern: '/etc/*' }, ws.ctx)).ok).toBe(false);
  });

  it('takes an absolute pattern into a folder whose name begins with two dots as inside', async () => {
    const ws = await tempWorkspace();
    await makeFiles(ws.root, ['..gen/a.ts', '..gen/b.md']);
    const out = await globTool.execute({ pattern: path.join(ws.root, '..gen', '*.ts') }, ws.ctx);
    expect(out).toEqual({ ok: true, content: '..gen/a.ts' });
  });

  it('refuses an absolute pattern into a sibling whose name begins with the root, or one that climbs out', async () => {
    const ws = await tempWorkspace();
    expect((await globTool.execute({ pattern: `${ws.root}x/*` }, ws.ctx)).ok).toBe(false);
    expect((await globTool.execute({ pattern: `${ws.root}/src/../../outside/*` }, ws.ctx)).ok).toBe(false);
    expect((await globTool.execute({ pattern: ws.root }, ws.ctx)).ok).toBe(false);
  });

  it('reports a malformed pattern', async () => {
    const ws = await tempWorkspace();
    const out = await globTool.execute({ pattern: 'src/{a,b' }, ws.ctx);
    expect(out).toEqual({ ok: false, content: 'Invalid glob "src/{a,b": "{" has no closing "}".' });
  });

  it('translates globs to anchored expressions', () => {
    const test = (pattern: string, candidate: string): boolean => {
      const compiled = globToRegExp(pattern);
      return compiled.ok && compiled.regExp.test(candidate);
    };
    expect(test('**/*.ts', 'a.ts')).toBe(true);
    expect(test('**/*.ts', 'x/y/a.ts')).toBe(true);
    expect(test('*.ts', 'x/a.ts')).toBe(false);
    expect(test('a/**/b', 'a/b')).toBe(true);
    expect(test('a/**/b', 'a/x/y/b')).toBe(true);
    expect(test('[!a]*.md', 'b.md')).toBe(true);
    expect(test('[!a]*.md', 'a.md')).toBe(false);
    expect(test('{src,test}/**/*.{ts,tsx}', 'test/x/y.tsx')).toBe(true);
    expect(test('a.b', 'axb')).toBe(false);
    // "**" inside a segment is a "*": it never crosses "/".
    expect(test('a/**b/c', 'a/xb/c')).toBe(true);
    expect(test('a/**b/c', 'a/x/yb/c')).toBe(false);
    expect(test('src/**.ts', 'src/a/b.ts')).toBe(false);
    expect(test('*.ts', '.hidden.ts')).toBe(true);
    expect(staticPrefix('src/core/**/*.ts')).toBe('src/core');
    expect(staticPrefix('*.ts')).toBe('');
  });
});
