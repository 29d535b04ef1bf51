/**
 * Class 3: the file tools leaving the workspace. The world has `link` → a directory outside the
 * workspace holding a secret file and a file whose name must never be listed; every case tries
 * to read, list, search, write, edit or delete through it, or past the root, or to hang tole on
 * a FIFO.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { AttackCase } from './attack-case';
import { call } from './case-helpers';
import { SECRET_TEXT, type World } from './world';

/** The links every path case uses, made once per world (a second call finds them made). */
export function linkOut(world: World): void {
  const link = join(world.ws, 'link');
  if (!existsSync(link)) symlinkSync(world.secretDir, link);
  const abs = join(world.ws, 'abs-link');
  if (!existsSync(abs)) symlinkSync(join(world.secretDir, 'secret.txt'), abs);
  const environ = join(world.ws, 'environ-link');
  if (!existsSync(environ)) symlinkSync('/proc/self/environ', environ);
  const up = join(world.ws, 'up-link');
  if (!existsSync(up)) symlinkSync('..', up);
}

const world = 'paths';
const setup = (w: World): void => linkOut(w);

/** The secret directory is whole: its two files, unchanged, and nothing new in it. */
function secretIntact(w: World): string | null {
  const names = readdirSync(w.secretDir).sort();
  if (names.join(',') !== 'listing-canary-91b2.txt,secret.txt')
    return `the outside directory now holds ${names.join(', ') || 'nothing'}`;
  if (!readFileSync(join(w.secretDir, 'secret.txt'), 'utf8').includes(SECRET_TEXT))
    return 'the outside secret file was changed';
  return null;
}

/** Nothing was made beside the workspace (a directory created on the way to a refusal). */
function nothingBeside(w: World): string | null {
  const names = readdirSync(w.base).filter(
    (n) => !['home', 'ws', 'out', 'tole-home', 'secret', 'bin', 'tmux-0', 'tmux-settled'].includes(n),
  );
  return names.length > 0 ? `made beside the workspace: ${names.join(', ')}` : secretIntact(w);
}

const read = (id: string, what: string, path: string): AttackCase =>
  call(3, id, what, 'read_file', { path }, { world, setup });
const list = (id: string, what: string, path: string): AttackCase =>
  call(3, id, what, 'list_dir', { path }, { world, setup });
const grep = (id: string, what: string, path?: string): AttackCase =>
  call(3, id, what, 'grep', path === undefined ? { pattern: 'OUTSIDE-SECRET' } : { pattern: 'OUTSIDE-SECRET', path }, {
    world,
    setup,
  });
const write = (
  id: string,
  what: string,
  path: string,
  check: (w: World) => string | null = nothingBeside,
): AttackCase => call(3, id, what, 'write_file', { path, content: 'planted\n' }, { world, setup, check });
const del = (id: string, what: string, path: string): AttackCase =>
  call(
    3,
    id,
    what,
    'delete_path',
    { path },
    {
      world: `del-${id}`,
      setup,
      check: (w) => (existsSync(w.ws) ? secretIntact(w) : 'the workspace itself was deleted'),
    },
  );

const READS: AttackCase[] = [
  read('read-missing-dotdot-link', 'a missing component, .., then the link out', 'nope/../link/secret.txt'),
  read('read-link', 'the link out, plainly', 'link/secret.txt'),
  read('read-abs-link', 'a link straight to an outside file', 'abs-link'),
  read('read-absolute', 'an absolute path outside', '{SECRET_DIR}/secret.txt'),
  read('read-dotdot', '.. above the root', '../secret/secret.txt'),
  read('read-deep-dotdot', 'missing components then .. past the root', 'a/b/../../../secret/secret.txt'),
  read('read-up-link', 'a link to .. then on', 'up-link/secret/secret.txt'),
  read('read-environ-link', "a link to /proc/self/environ (tole's own environment)", 'environ-link'),
  read('read-proc-environ', '/proc/self/environ by its absolute path', '/proc/self/environ'),
  read('read-dot-slash-dotdot', './ and .. mixed', './nope/./../link/./secret.txt'),
  read('read-backslash', 'a backslash as a separator', 'nope\\..\\link\\secret.txt'),
  read('read-double-slash', 'doubled slashes', 'nope//..//link//secret.txt'),
];

const LISTINGS: AttackCase[] = [
  list('list-missing-dotdot-link', 'list through a missing component and ..', 'nope/../link'),
  list('list-link', 'list the link out', 'link'),
  list('list-dotdot', 'list the parent', '..'),
  list('list-up-link', 'list through a link to ..', 'up-link/secret'),
  grep('grep-missing-dotdot-link', 'grep through a missing component and ..', 'nope/../link'),
  grep('grep-link', 'grep the link out', 'link'),
  grep('grep-whole', 'grep the whole workspace (it holds the link)'),
  grep('grep-abs-link', 'grep a link to an outside file', 'abs-link'),
  call(3, 'glob-link', 'glob through the link out', 'glob', { pattern: 'link/*' }, { world, setup }),
  call(3, 'glob-all', 'glob everything (the links too)', 'glob', { pattern: '**/*.txt' }, { world, setup }),
  call(3, 'glob-dotdot', 'glob past the root', 'glob', { pattern: '../secret/*' }, { world, setup }),
];

const WRITES: AttackCase[] = [
  write('write-missing-dotdot-link', 'write through a missing component, .., the link', 'nope/../link/planted.txt'),
  write(
    'write-makes-dirs-outside',
    'write where the directories to make are outside',
    'nope/deeper/../../link/newdir/planted.txt',
  ),
  write('write-link-dotdot', 'write to the link then .. (the outside parent)', 'link/../out-planted.txt'),
  write('write-absolute', 'write to an absolute path outside', '{OUT}/write-absolute'),
  write('write-up-link', 'write through a link to ..', 'up-link/planted.txt'),
  write('write-abs-link', 'write over a link to an outside file', 'abs-link'),
  call(
    3,
    'edit-link',
    'edit through the link out',
    'edit_file',
    { path: 'nope/../link/secret.txt', old_text: 'OUTSIDE', new_text: 'edited' },
    {
      world,
      setup,
      check: secretIntact,
    },
  ),
  call(
    3,
    'edit-abs-link',
    'edit a link to an outside file',
    'edit_file',
    { path: 'abs-link', old_text: 'OUTSIDE', new_text: 'edited' },
    {
      world,
      setup,
      check: secretIntact,
    },
  ),
  del('delete-missing-dotdot-link', 'delete through a missing component and ..', 'nope/../link/secret.txt'),
  del('delete-link-slash', 'delete the link with a trailing slash (its target)', 'link/'),
  del('delete-link-dot', 'delete link/. (the target directory)', 'link/.'),
  del('delete-root', 'delete the workspace root', '.'),
  del('delete-dotdot', 'delete the parent', '..'),
  del('delete-missing-dotdot', 'delete a missing component, then ..', 'nope/..'),
];

/** A FIFO in the workspace: read_file and grep must neither hang nor block tole's exit. */
const FIFOS: AttackCase[] = [
  call(
    3,
    'read-fifo',
    'read_file on a FIFO',
    'read_file',
    { path: 'c/read-fifo/pipe' },
    {
      world: 'fifo',
      setup: (_w, dir) => {
        mkdirSync(dir, { recursive: true });
        execFileSync('mkfifo', [join(dir, 'pipe')]);
      },
    },
  ),
  call(
    3,
    'grep-fifo',
    'grep a folder holding a FIFO',
    'grep',
    { pattern: 'x', path: 'c/grep-fifo' },
    {
      world: 'fifo',
      setup: (_w, dir) => {
        mkdirSync(dir, { recursive: true });
        execFileSync('mkfifo', [join(dir, 'pipe')]);
      },
    },
  ),
  call(
    3,
    'edit-fifo',
    'edit_file on a FIFO',
    'edit_file',
    { path: 'c/edit-fifo/pipe', old_text: 'a', new_text: 'b' },
    {
      world: 'fifo',
      setup: (_w, dir) => {
        mkdirSync(dir, { recursive: true });
        execFileSync('mkfifo', [join(dir, 'pipe')]);
      },
    },
  ),
  call(
    3,
    'read-dev-zero-link',
    'read_file on a link to /dev/zero',
    'read_file',
    { path: 'c/read-dev-zero-link/zero' },
    {
      world: 'fifo',
      setup: (_w, dir) => {
        mkdirSync(dir, { recursive: true });
        execFileSync('ln', ['-s', '/dev/zero', join(dir, 'zero')]);
      },
    },
  ),
];

export const PATH_CASES: readonly AttackCase[] = [...READS, ...LISTINGS, ...WRITES, ...FIFOS];
