/**
 * The corpus of ways a model or a cloned repository has tried to make a file tool act outside
 * the workspace: every row is one call against the same planted workspace, and after every row
 * the directory outside must be byte for byte what it was and no output may show its secret.
 * Add a row for each new attack.
 */
import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { deletePathTool } from '../../../src/core/tools/builtin/delete-path';
import { editFileTool } from '../../../src/core/tools/builtin/edit-file';
import { globTool } from '../../../src/core/tools/builtin/glob';
import { grepTool } from '../../../src/core/tools/builtin/grep';
import { listDirTool } from '../../../src/core/tools/builtin/list-dir';
import { readFileTool } from '../../../src/core/tools/builtin/read-file';
import { writeFileTool } from '../../../src/core/tools/builtin/write-file';
import type { AnyTool, ToolOutput } from '../../../src/core/tools/tool';
import { tempWorkspace, type TempWorkspace } from './temp-workspace';

const SECRET = 'SECRET-OUTSIDE';

interface Row {
  readonly tool: AnyTool;
  /** The input; `$OUT` and `$ROOT` stand for the outside directory and the workspace root. */
  readonly input: Record<string, string>;
  /** refused: ok false; ok: the call works (inside the workspace); either way nothing outside changes. */
  readonly outcome: 'refused' | 'ok';
  /** Words the output must hold. */
  readonly says?: string;
}

const read = (p: string, outcome: Row['outcome'] = 'refused', says?: string): Row => ({
  tool: readFileTool,
  input: { path: p },
  outcome,
  ...(says ? { says } : {}),
});
const list = (p: string, outcome: Row['outcome'] = 'refused', says?: string): Row => ({
  tool: listDirTool,
  input: { path: p },
  outcome,
  ...(says ? { says } : {}),
});
const grep = (p: string, outcome: Row['outcome'] = 'refused', says?: string): Row => ({
  tool: grepTool,
  input: { pattern: 'SECRET-[O]UTSIDE', path: p },
  outcome,
  ...(says ? { says } : {}),
});
const write = (p: string, outcome: Row['outcome'] = 'refused', says?: string): Row => ({
  tool: writeFileTool,
  input: { path: p, content: 'written by the model\n' },
  outcome,
  ...(says ? { says } : {}),
});
const edit = (p: string, says?: string): Row => ({
  tool: editFileTool,
  input: { path: p, old_text: SECRET, new_text: 'edited' },
  outcome: 'refused',
  ...(says ? { says } : {}),
});
const remove = (p: string, says?: string): Row => ({
  tool: deletePathTool,
  input: { path: p },
  outcome: 'refused',
  ...(says ? { says } : {}),
});
const glob = (pattern: string, outcome: Row['outcome'] = 'ok', says?: string): Row => ({
  tool: globTool,
  input: { pattern },
  outcome,
  ...(says ? { says } : {}),
});

const OUTSIDE = 'outside the workspace';
const MISSING_THEN_UP = 'does not exist, so the ".." after it cannot be resolved';
const SPECIAL = 'not a regular file (a FIFO, socket or device)';

/** The corpus. Paths name the planted workspace of `plant` below. */
const CORPUS: readonly Row[] = [
  // A missing component followed by `..` and a link out: the walk must not skip the rest.
  read('nope/../link/secret.txt', 'refused', MISSING_THEN_UP),
  list('nope/../link', 'refused', MISSING_THEN_UP),
  grep('nope/../link', 'refused', MISSING_THEN_UP),
  write('nope/../link/new.txt', 'refused', MISSING_THEN_UP),
  edit('nope/../link/secret.txt', MISSING_THEN_UP),
  remove('nope/../link/home', MISSING_THEN_UP),
  glob('nope/../link/*', 'refused', MISSING_THEN_UP),
  read('nope/deeper/../../link/secret.txt', 'refused', MISSING_THEN_UP),
  write('new-dir/../../outside/created/x.txt', 'refused', MISSING_THEN_UP),
  // A link to a $HOME-like directory outside, absolute and relative.
  read('link/secret.txt', 'refused', OUTSIDE),
  read('rel-link/secret.txt', 'refused', OUTSIDE),
  list('link', 'refused', OUTSIDE),
  list('link/home', 'refused', OUTSIDE),
  grep('link', 'refused', OUTSIDE),
  grep('rel-link/home', 'refused', OUTSIDE),
  write('link/new.txt', 'refused', OUTSIDE),
  write('link/a/b/c/new.txt', 'refused', OUTSIDE),
  edit('link/secret.txt', OUTSIDE),
  remove('link/home', OUTSIDE),
  remove('rel-link/home/keep.txt', OUTSIDE),
  glob('link/**', 'refused', OUTSIDE),
  // A link to the workspace's parent, and one to a file outside.
  read('up-link/outside/secret.txt', 'refused', OUTSIDE),
  list('up-link', 'refused', OUTSIDE),
  remove('up-link/outside', OUTSIDE),
  read('secret-link', 'refused', OUTSIDE),
  edit('secret-link', OUTSIDE),
  write('secret-link', 'refused', OUTSIDE),
  // A dangling link whose target would be created outside.
  write('dangling', 'refused', OUTSIDE),
  write('dangling-dir/x.txt', 'refused', OUTSIDE),
  // `..` above the root, directly or after a real directory or an inside link.
  read('../outside/secret.txt', 'refused', OUTSIDE),
  read('sub/../../outside/secret.txt', 'refused', OUTSIDE),
  read('inside-link/../../outside/secret.txt', 'refused', OUTSIDE),
  list('..', 'refused', OUTSIDE),
  grep('..', 'refused', OUTSIDE),
  write('../outside/new.txt', 'refused', OUTSIDE),
  remove('sub/../..', OUTSIDE),
  glob('../outside/*', 'refused', OUTSIDE),
  // Absolute paths.
  read('$OUT/secret.txt', 'refused', OUTSIDE),
  read('/etc/passwd', 'refused', OUTSIDE),
  read('/proc/self/environ', 'refused', OUTSIDE),
  read('/dev/zero', 'refused', OUTSIDE),
  list('/proc/self/fd', 'refused', OUTSIDE),
  grep('/etc', 'refused', OUTSIDE),
  write('$OUT/new.txt', 'refused', OUTSIDE),
  remove('$OUT/home', OUTSIDE),
  read('$ROOT/../outside/secret.txt', 'refused', OUTSIDE),
  read('$ROOT/file.txt', 'ok', 'inside'),
  glob('$OUT/*', 'refused', OUTSIDE),
  // The root itself is never deleted, however it is written.
  remove('.', 'Refusing to delete the workspace root itself'),
  remove('sub/..', 'Refusing to delete the workspace root itself'),
  remove('$ROOT', 'Refusing to delete the workspace root itself'),
  remove('dot-link/.', 'Refusing to delete the workspace root itself'),
  remove('dot-link/', 'Refusing to delete the workspace root itself'),
  remove('link/', OUTSIDE),
  remove('secret-link/.', OUTSIDE),
  // A path through a file as if it were a directory.
  read('file.txt/x', 'refused', 'file.txt is a file, not a directory'),
  write('file.txt/x', 'refused', 'file.txt is a file, not a directory'),
  read('file.txt/../secret.txt', 'refused', 'file.txt is a file, not a directory'),
  // FIFOs and other special files: never opened for reading, never hang.
  read('fifo', 'refused', SPECIAL),
  grep('fifo', 'refused', SPECIAL),
  list('fifo', 'refused', SPECIAL),
  write('fifo', 'refused', SPECIAL),
  edit('fifo', SPECIAL),
  grep('fifo-dir', 'ok', 'skipped 1 special files'),
  list('fifo-dir', 'ok', 'pipe  (FIFO, not a regular file)'),
  // Symlink loops end with a word, not a hang.
  read('loop1/x', 'refused', 'a symlink loop'),
  read('self', 'refused', 'a symlink loop'),
  write('loop1/x', 'refused', 'a symlink loop'),
  list('self', 'refused', 'a symlink loop'),
  // NUL bytes and odd names.
  read('file.txt\0../outside/secret.txt', 'refused', 'NUL byte'),
  write('new\0name', 'refused', 'NUL byte'),
  read('ünïcödé/../link/secret.txt', 'refused', MISSING_THEN_UP),
  read('sub/ファイル.txt', 'ok', 'inside unicode'),
  read('sub\\..\\..\\outside\\secret.txt', 'refused', OUTSIDE),
  // Links that stay inside are followed, each hop checked.
  read('inside-link/file.txt', 'ok', 'inside sub'),
  read('abs-inside-link/file.txt', 'ok', 'inside sub'),
  read('dot-link/dot-link/dot-link/file.txt', 'ok', 'inside'),
  read('chain-link/file.txt', 'ok', 'inside sub'),
  read('sneaky-abs-link/secret.txt', 'refused', OUTSIDE),
  read('root-link/file.txt', 'ok', 'inside'),
  read('evil-sibling-link/secret.txt', 'refused', OUTSIDE),
  write('evil-sibling-link/new.txt', 'refused', OUTSIDE),
  read('x'.repeat(300), 'refused', 'ENAMETOOLONG'),
  // Whole-workspace searches never descend through a link to outside.
  grep('.', 'ok', 'No matches'),
  glob('**/secret.txt', 'ok', 'No files match'),
  glob('**/keep.txt', 'ok', 'No files match'),
];

/** Plants the workspace and the $HOME-like directory outside it that every row attacks. */
async function plant(ws: TempWorkspace): Promise<void> {
  const at = (name: string): string => path.join(ws.root, name);
  await writeFile(path.join(ws.outside, 'secret.txt'), `${SECRET}\n`);
  await mkdir(path.join(ws.outside, 'home'));
  await writeFile(path.join(ws.outside, 'home', 'keep.txt'), `${SECRET} keep\n`);
  await writeFile(at('file.txt'), 'inside\n');
  await mkdir(at('sub'));
  await writeFile(at('sub/file.txt'), 'inside sub\n');
  await writeFile(at('sub/ファイル.txt'), 'inside unicode\n');
  await symlink(ws.outside, at('link'));
  await symlink('../outside', at('rel-link'));
  await symlink('..', at('up-link'));
  await symlink('.', at('dot-link'));
  await symlink('sub', at('inside-link'));
  await symlink(at('sub'), at('abs-inside-link'));
  await symlink('inside-link', at('chain-link'));
  await symlink(`${ws.root}/sub/../../outside`, at('sneaky-abs-link'));
  await symlink(path.join(ws.outside, 'secret.txt'), at('secret-link'));
  await symlink(ws.root, at('root-link'));
  // A sibling whose name starts with the root's: a string-prefix check would let it in.
  await mkdir(`${ws.root}-evil`);
  await writeFile(`${ws.root}-evil/secret.txt`, `${SECRET}\n`);
  await symlink(`${ws.root}-evil`, at('evil-sibling-link'));
  await symlink(path.join(ws.outside, 'later.txt'), at('dangling'));
  await symlink(path.join(ws.outside, 'later-dir'), at('dangling-dir'));
  await symlink('loop2', at('loop1'));
  await symlink('loop1', at('loop2'));
  await symlink('self', at('self'));
  execFileSync('mkfifo', [at('fifo')]);
  await mkdir(at('fifo-dir'));
  execFileSync('mkfifo', [at('fifo-dir/pipe')]);
}

/** Every path, kind and content under `dir`, links as their text: what must not change. */
async function snapshot(dir: string): Promise<string[]> {
  const lines: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const full = path.join(dir, name);
    const stats = await lstat(full);
    if (stats.isDirectory()) lines.push(`${name}/`, ...(await snapshot(full)).map((line) => `${name}/${line}`));
    else if (stats.isSymbolicLink()) lines.push(`${name} -> ${await readlink(full)}`);
    else if (stats.isFile()) lines.push(`${name}: ${await readFile(full, 'utf8')}`);
    else lines.push(`${name} (special)`);
  }
  return lines;
}

function substitute(input: Record<string, string>, ws: TempWorkspace): Record<string, string> {
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [key, value.replace('$OUT', ws.outside).replace('$ROOT', ws.root)]),
  );
}

describe('file tools stay in the workspace (the corpus)', () => {
  let ws: TempWorkspace;
  let outsideBefore: string[];

  beforeEach(async () => {
    ws = await tempWorkspace();
    await plant(ws);
    outsideBefore = await snapshot(ws.outside);
  });

  it.each(
    CORPUS.map((row) => [`${row.tool.name} ${JSON.stringify(row.input)}`, row] as const),
  )('%s', async (_name, row) => {
    const input = substitute(row.input, ws);
    let out: ToolOutput;
    try {
      if (row.tool.prepare) await row.tool.prepare(input, ws.ctx);
      out = await row.tool.execute(input, ws.ctx);
    } catch (error) {
      out = { ok: false, content: (error as Error).message };
    }
    expect(out.ok, out.content).toBe(row.outcome === 'ok');
    if (row.says) expect(out.content).toContain(row.says);
    expect(out.content).not.toContain(SECRET);
    expect(await snapshot(ws.outside)).toEqual(outsideBefore);
  });

  it('every file tool stops when the workspace root itself is swapped for a link to outside', async () => {
    const { rename } = await import('node:fs/promises');
    await rename(ws.root, `${ws.root}-moved`);
    await symlink(ws.outside, ws.root);
    for (const row of [read('secret.txt'), list('.'), grep('.'), write('new.txt'), remove('home')]) {
      const out = await row.tool.execute(substitute(row.input, ws), ws.ctx);
      expect(out.ok, row.tool.name).toBe(false);
      expect(out.content).toContain('it was moved or replaced by a symlink since tole started');
    }
    expect(await snapshot(ws.outside)).toEqual(outsideBefore);
  });

  it('write_file creates no directory, inside or out, for a path it refuses', async () => {
    const before = await snapshot(ws.root);
    for (const p of ['a/b/../../../outside/x.txt', 'made/../link/x.txt', 'made/deeper/../../../x']) {
      expect((await writeFileTool.execute({ path: p, content: 'x' }, ws.ctx)).ok, p).toBe(false);
    }
    expect(await snapshot(ws.root)).toEqual(before);
  });

  it('write_file creates the missing directories of a path that stays inside', async () => {
    const out = await writeFileTool.execute({ path: 'inside-link/new/deeper/x.txt', content: 'made\n' }, ws.ctx);
    expect(out).toMatchObject({ ok: true, content: 'Created sub/new/deeper/x.txt (5 bytes, 1 lines).' });
    expect(await readFile(path.join(ws.root, 'sub/new/deeper/x.txt'), 'utf8')).toBe('made\n');
  });
});
