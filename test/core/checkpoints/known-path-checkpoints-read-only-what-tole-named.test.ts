/**
 * A known-path checkpoint is the last checkpoint's tree with only the paths tole's own calls named
 * read again: the same tree a scan would make of those changes, made without looking at any other
 * path (a file changed behind tole's back is not in it, which is what the trust rule says). And
 * wherever a few stats cannot settle what a named path means for git, or the process cannot vouch
 * for its last checkpoint, it scans instead: a symlink on the way, a path that became a folder, a
 * nested repository, an ignored path, a `.gitignore`, another tole's checkpoint, a `rescan`, a
 * fresh process after a crash between an effect and the next checkpoint.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Checkpoints } from '../../../src/core/checkpoints/checkpoint-store';
import { tempDirs, type TempDirs } from '../../support/agent-fixtures';

let dirs: TempDirs;
let toles: Checkpoints[];
beforeEach(() => {
  dirs = tempDirs('tole-checkpoint-known-');
  toles = [];
});
afterEach(() => {
  for (const t of toles) t.close();
  dirs.remove();
});

const MAX_FILE_BYTES = 1000;

function tole(): Checkpoints {
  const made = Checkpoints.create({ home: dirs.home, workspaceRoot: dirs.root, maxFileBytes: MAX_FILE_BYTES });
  toles.push(made);
  return made;
}

const at = (...parts: string[]): string => join(dirs.root, ...parts);

async function take(checkpoints: Checkpoints, how: 'scan' | 'known-paths'): Promise<{ id: string; leftOut: string[] }> {
  const taken = await checkpoints.take(how);
  if (!taken.ok) throw new Error(`checkpoint failed: ${taken.reason}`);
  return { id: taken.id, leftOut: taken.leftOut.map((l) => `${l.why} ${l.path}`) };
}

/** Every file a checkpoint holds: path → mode and blob id. */
function listing(checkpoints: Checkpoints, id: string): Record<string, string> {
  const run = spawnSync('git', ['ls-tree', '-r', '-z', id], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], GIT_DIR: checkpoints.directory, GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  if (run.status !== 0) throw new Error(run.stderr);
  const files: Record<string, string> = {};
  for (const line of run.stdout.split('\0').filter(Boolean)) {
    const [meta, path] = line.split('\t');
    const [mode, , blob] = meta!.split(' ');
    files[path!] = `${mode} ${blob}`;
  }
  return files;
}

function blobOf(text: string): string {
  return spawnSync('git', ['hash-object', '--stdin'], { input: text, encoding: 'utf8' }).stdout.trim();
}

/** A workspace with files in folders, a script, a folder to delete whole and a nested repository. */
function makeWorkspace(): void {
  mkdirSync(at('src', 'deep'), { recursive: true });
  writeFileSync(at('src', 'main.ts'), 'export const main = 1;\n');
  writeFileSync(at('src', 'deep', 'leaf.ts'), 'leaf\n');
  writeFileSync(at('run.sh'), '#!/bin/sh\n');
  writeFileSync(at('old.txt'), 'to be deleted\n');
  mkdirSync(at('gone', 'inner'), { recursive: true });
  writeFileSync(at('gone', 'a.txt'), 'a\n');
  writeFileSync(at('gone', 'inner', 'b.txt'), 'b\n');
  writeFileSync(at('marker.txt'), 'before\n');
  // Line endings git normalises when it stages: a known-path blob must be the one a scan stages.
  writeFileSync(at('.gitattributes'), '*.crlf text\n');
  mkdirSync(at('nested'));
  writeFileSync(at('nested', 'code.c'), 'int x;\n');
  spawnSync('git', ['init', '-q', at('nested')], {
    env: { PATH: process.env['PATH'], GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}

describe('a known-path checkpoint reads only the paths tole named', () => {
  it('holds each named change as a scan would, and not a change no call named', async () => {
    makeWorkspace();
    const t = tole();
    const first = await take(t, 'scan');
    expect(first.leftOut).toEqual(['nested-repository nested']);

    // Behind tole's back: no call names it.
    writeFileSync(at('marker.txt'), 'changed by another process\n');
    // Names beside a folder's that git orders as if the folder's ended in `/` (the tree ids are worked out by tole).
    t.noteChanges([
      'src/new/deeper/a.ts',
      'src/main.ts',
      'run.sh',
      'old.txt',
      'gone',
      'big.bin',
      'src/deep.ts',
      'src/deep-er/x',
    ]);
    writeFileSync(at('src', 'deep.ts'), 'beside the folder\n');
    t.noteChanges(['notes.crlf']);
    writeFileSync(at('notes.crlf'), 'one\r\ntwo\r\n');
    mkdirSync(at('src', 'deep-er'));
    writeFileSync(at('src', 'deep-er', 'x'), 'x\n');
    mkdirSync(at('src', 'new', 'deeper'), { recursive: true });
    writeFileSync(at('src', 'new', 'deeper', 'a.ts'), 'new file\n');
    writeFileSync(at('src', 'main.ts'), 'export const main = 2;\n');
    chmodSync(at('run.sh'), 0o755);
    rmSync(at('old.txt'));
    rmSync(at('gone'), { recursive: true });
    writeFileSync(at('big.bin'), Buffer.alloc(MAX_FILE_BYTES + 1, 7));
    const known = await take(t, 'known-paths');

    const held = listing(t, known.id);
    expect(held['marker.txt']).toBe(`100644 ${blobOf('before\n')}`);
    expect(known.leftOut).toEqual(['nested-repository nested', 'too-large big.bin']);
    // The same tree a scan makes of the workspace now, but for the file no call named.
    const scanned = listing(t, (await take(t, 'scan')).id);
    expect(scanned['marker.txt']).toBe(`100644 ${blobOf('changed by another process\n')}`);
    expect({ ...held, 'marker.txt': '' }).toEqual({ ...scanned, 'marker.txt': '' });
    expect(held['run.sh']).toMatch(/^100755 /);
    expect(held['notes.crlf']).toBe(`100644 ${blobOf('one\ntwo\n')}`);
    expect(Object.keys(held).filter((p) => p.startsWith('gone') || p === 'old.txt' || p === 'big.bin')).toEqual([]);
  });

  it('drops a file from the left-out list once it is small again, and a known-path checkpoint restores', async () => {
    makeWorkspace();
    writeFileSync(at('big.bin'), Buffer.alloc(MAX_FILE_BYTES + 1, 7));
    const t = tole();
    expect((await take(t, 'scan')).leftOut).toContain('too-large big.bin');
    t.noteChanges(['big.bin']);
    writeFileSync(at('big.bin'), 'small now\n');
    const known = await take(t, 'known-paths');
    expect(known.leftOut).toEqual(['nested-repository nested']);
    expect(listing(t, known.id)['big.bin']).toBe(`100644 ${blobOf('small now\n')}`);

    writeFileSync(at('big.bin'), 'changed after\n');
    rmSync(at('src'), { recursive: true });
    await t.restore(known.id);
    expect(readFileSync(at('big.bin'), 'utf8')).toBe('small now\n');
    expect(readFileSync(at('src', 'deep', 'leaf.ts'), 'utf8')).toBe('leaf\n');
  });
});

/** Each case changes the workspace and names paths; the checkpoint must then be a scan's. */
const SCAN_CASES: { name: string; act: (t: Checkpoints) => void }[] = [
  {
    name: 'a named path under a symlinked folder',
    act: (t) => {
      symlinkSync('src', at('linked'));
      t.noteChanges(['linked/main.ts']);
      writeFileSync(at('linked', 'main.ts'), 'through the link\n');
    },
  },
  {
    name: 'a named path that became a folder',
    act: (t) => {
      rmSync(at('old.txt'));
      mkdirSync(at('old.txt'));
      writeFileSync(at('old.txt', 'inside'), 'x\n');
      t.noteChanges(['old.txt']);
    },
  },
  {
    name: 'a named path below what the last checkpoint holds as a file',
    act: (t) => {
      rmSync(at('old.txt'));
      mkdirSync(at('old.txt'));
      writeFileSync(at('old.txt', 'inside'), 'x\n');
      t.noteChanges(['old.txt/inside']);
    },
  },
  {
    name: 'a named path that is a symlink',
    act: (t) => {
      rmSync(at('old.txt'));
      symlinkSync('src/main.ts', at('old.txt'));
      t.noteChanges(['old.txt']);
    },
  },
  {
    name: 'a nested repository made by a write into its .git',
    act: (t) => {
      mkdirSync(at('vendor', 'lib', '.git'), { recursive: true });
      writeFileSync(at('vendor', 'lib', '.git', 'HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(at('vendor', 'lib', 'x.c'), 'int y;\n');
      t.noteChanges(['vendor/lib/.git/HEAD']);
    },
  },
  {
    name: 'a write into a nested repository',
    act: (t) => {
      writeFileSync(at('nested', 'more.c'), 'int z;\n');
      t.noteChanges(['nested/more.c']);
    },
  },
  {
    name: 'an ignored path',
    act: (t) => {
      mkdirSync(at('node_modules'));
      writeFileSync(at('node_modules', 'x.js'), 'ignored\n');
      t.noteChanges(['node_modules/x.js']);
    },
  },
  {
    name: 'a .gitignore, which changes what other paths mean',
    act: (t) => {
      writeFileSync(at('.gitignore'), 'src/deep/\n');
      t.noteChanges(['.gitignore']);
    },
  },
  {
    name: 'a rescan asked for (a call tole cannot name ran)',
    act: (t) => {
      t.noteChanges(['src/main.ts']);
      writeFileSync(at('src', 'main.ts'), 'named\n');
      t.rescan();
    },
  },
];

describe('a known-path checkpoint scans where it cannot vouch', () => {
  it.each(SCAN_CASES)('$name', async ({ act }) => {
    makeWorkspace();
    const t = tole();
    await take(t, 'scan');
    writeFileSync(at('marker.txt'), 'changed by another process\n');
    act(t);
    const known = await take(t, 'known-paths');
    expect(listing(t, known.id)['marker.txt']).toBe(`100644 ${blobOf('changed by another process\n')}`);
    expect(listing(t, known.id)).toEqual(listing(t, (await take(t, 'scan')).id));
  });

  it('after another tole took a checkpoint (it may have changed files)', async () => {
    makeWorkspace();
    const [a, b] = [tole(), tole()];
    await take(a, 'scan');
    writeFileSync(at('marker.txt'), 'changed by the other tole\n');
    await take(b, 'scan');
    a.noteChanges(['src/main.ts']);
    writeFileSync(at('src', 'main.ts'), 'named\n');
    const known = await take(a, 'known-paths');
    expect(listing(a, known.id)['marker.txt']).toBe(`100644 ${blobOf('changed by the other tole\n')}`);
    expect(listing(a, known.id)['src/main.ts']).toBe(`100644 ${blobOf('named\n')}`);
  });

  it('in a fresh process, after a crash between an effect and the next checkpoint', async () => {
    makeWorkspace();
    const before = tole();
    await take(before, 'scan');
    before.noteChanges(['src/main.ts']);
    writeFileSync(at('src', 'main.ts'), 'written, then the process died\n');
    before.close();
    const after = tole();
    const known = await take(after, 'known-paths');
    expect(listing(after, known.id)['src/main.ts']).toBe(`100644 ${blobOf('written, then the process died\n')}`);
  });
});
