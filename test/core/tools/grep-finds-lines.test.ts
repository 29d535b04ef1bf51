import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GREP_MAX_FILE_BYTES, GREP_MAX_MATCHES, grepTool } from '../../../src/core/tools/builtin/grep';
import { tempWorkspace } from './temp-workspace';

describe('grep', () => {
  it('prints file:line: text for every match, files in order', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'src'));
    await writeFile(path.join(ws.root, 'src/a.ts'), 'const a = 1;\n// TODO: fix\nconst b = 2;\n');
    await writeFile(path.join(ws.root, 'b.md'), 'FIXME later\r\nok\r\n');
    const out = await grepTool.execute({ pattern: 'TODO|FIXME' }, ws.ctx);
    expect(out).toEqual({ ok: true, content: 'b.md:1: FIXME later\nsrc/a.ts:2: // TODO: fix' });
  });

  it('searches only under the given path, or in one file', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, 'src'));
    await writeFile(path.join(ws.root, 'src/a.ts'), 'needle\n');
    await writeFile(path.join(ws.root, 'top.ts'), 'needle\n');
    expect((await grepTool.execute({ pattern: 'needle', path: 'src' }, ws.ctx)).content).toBe('src/a.ts:1: needle');
    expect((await grepTool.execute({ pattern: 'needle', path: 'top.ts' }, ws.ctx)).content).toBe('top.ts:1: needle');
  });

  it('skips binaries, large files, .git and node_modules, and says how many files it skipped', async () => {
    const ws = await tempWorkspace();
    await mkdir(path.join(ws.root, '.git'));
    await mkdir(path.join(ws.root, 'node_modules'));
    await writeFile(path.join(ws.root, '.git/HEAD'), 'needle\n');
    await writeFile(path.join(ws.root, 'node_modules/x.js'), 'needle\n');
    await writeFile(path.join(ws.root, 'bin.dat'), Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2])]));
    await writeFile(path.join(ws.root, 'big.log'), `needle\n${'z'.repeat(GREP_MAX_FILE_BYTES)}`);
    await writeFile(path.join(ws.root, 'real.txt'), 'a needle here\n');
    const out = await grepTool.execute({ pattern: 'needle' }, ws.ctx);
    expect(out.content.split('\n')).toEqual([
      'real.txt:1: a needle here',
      `[skipped 1 files over ${GREP_MAX_FILE_BYTES} bytes]`,
      '[skipped 1 binary files]',
    ]);
  });

  it(`stops at ${GREP_MAX_MATCHES} matches and says so`, async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'many.txt'), 'hit\n'.repeat(GREP_MAX_MATCHES * 2));
    const out = await grepTool.execute({ pattern: '^hit$' }, ws.ctx);
    const lines = out.content.split('\n');
    expect(lines.filter((line) => line.startsWith('many.txt:'))).toHaveLength(GREP_MAX_MATCHES);
    expect(lines.at(-1)).toContain(`stopped at ${GREP_MAX_MATCHES} matches`);
  });

  it('reports an invalid regular expression to the model', async () => {
    const ws = await tempWorkspace();
    const out = await grepTool.execute({ pattern: 'foo(' }, ws.ctx);
    expect(out.ok).toBe(false);
    expect(out.content).toContain('Invalid regular expression "foo("');
  });

  // With JavaScript's backtracking engine this pattern takes about a minute on one such line and
  // holds the event loop (Esc and signals wait); the test's own time limit is the bound.
  it('runs a catastrophic pattern in linear time, with the right answer', { timeout: 10_000 }, async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'a.txt'), `${'a'.repeat(30)}!\n${'a'.repeat(5000)}!\naaa\n`);
    const out = await grepTool.execute({ pattern: '(a+)+$' }, ws.ctx);
    expect(out).toEqual({ ok: true, content: 'a.txt:3: aaa' });
  });

  it('refuses lookaround and backreferences, saying what grep accepts', async () => {
    const ws = await tempWorkspace();
    for (const pattern of ['foo(?=bar)', '(a)\\1']) {
      const out = await grepTool.execute({ pattern }, ws.ctx);
      expect(out.ok).toBe(false);
      expect(out.content).toContain('RE2 syntax');
    }
  });

  it('says when nothing matches, and refuses paths outside the workspace', async () => {
    const ws = await tempWorkspace();
    await writeFile(path.join(ws.root, 'a.txt'), 'hay\n');
    expect(await grepTool.execute({ pattern: 'needle' }, ws.ctx)).toEqual({
      ok: true,
      content: 'No matches for "needle" in the workspace.',
    });
    expect((await grepTool.execute({ pattern: 'root', path: '/etc' }, ws.ctx)).ok).toBe(false);
    expect(await grepTool.execute({ pattern: 'x', path: 'missing' }, ws.ctx)).toEqual({
      ok: false,
      content: 'missing does not exist. Use list_dir or glob to find it.',
    });
  });
});
