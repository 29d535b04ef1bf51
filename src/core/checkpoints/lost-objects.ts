import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type GitTarget, runGitPastLocks } from './git-command';
import { catFileObject } from './git-pipe';
import { CHECKPOINT_REF, refInFiles } from './git-checkpoint-ref';
import { pathText } from './path-bytes';
import { parseTree, TREE_MODE } from './tree-edit';

/**
 * The objects under a checkpoint's commit that git cannot read: a folder's tree or a file's blob
 * lost in a crash before it reached the disk (tole's loose objects are not all fsynced), left
 * empty or cut short, or removed. The commit itself reads (lost-chain.ts looks at that), so
 * nothing else notices: a scan reuses an unchanged folder's tree by its id (git's cache tree) and
 * a known-path checkpoint every tree it does not edit, so each later checkpoint names the lost
 * object too, and a restore to any of them fails part way; a scan that stages a file beside a
 * lost blob fails (`invalid object`), and every later call ran without a checkpoint.
 */
export interface LostObject {
  readonly id: string;
  /** Where the checkpoint holds it (bytes, as git does). */
  readonly path: Buffer;
  readonly kind: 'file' | 'folder';
}

/**
 * The lost objects under `commit`, walked a folder level at a time (one `cat-file --batch` a
 * level), then every file's blob asked for at once (`cat-file --batch-check`, which reads a
 * loose object's header: an empty or cut file does not read). A submodule's commit is not an
 * object of tole's directory and is not asked for.
 */
export async function lostUnder(target: GitTarget, commit: string, stop: AbortSignal): Promise<LostObject[]> {
  return (await anyLostUnder(target, commit, stop)) ? walkLostUnder(target, commit, stop) : [];
}

/**
 * Whether anything under `commit` is lost, asked of git at its own speed (the walk that names
 * them costs several times more at 100,000 files): `rev-list --objects --missing=print` lists
 * each object it cannot find as `?id`, and takes a loose file that is there as the object; so
 * the loose files, the only ones a crash can leave damaged (a pack is written whole and synced
 * by git), are each read for a header (`cat-file --batch-check`), and any that does not read is
 * looked for in the listing. Anything unexpected (git failing) says yes: the walk then decides.
 */
async function anyLostUnder(target: GitTarget, commit: string, stop: AbortSignal): Promise<boolean> {
  const listed = await runGitPastLocks(target, ['rev-list', '--objects', '--missing=print', `${commit}^{tree}`], stop);
  if (listed.code !== 0) return true;
  const out = listed.stdout;
  if (out[0] === QUESTION || out.indexOf(NEWLINE_QUESTION) >= 0) return true;
  const damaged = await damagedLoose(target, stop);
  if (damaged === null) return true;
  if (damaged.size === 0) return false;
  for (const line of out.toString('latin1').split('\n')) if (damaged.has(line.slice(0, line.indexOf(' ')))) return true;
  return false;
}

/** The loose objects of the directory that git cannot read a header of; null when git could not be asked. */
async function damagedLoose(target: GitTarget, stop: AbortSignal): Promise<Set<string> | null> {
  const root = join(target.gitDir, 'objects');
  const ids: string[] = [];
  try {
    for (const dir of readdirSync(root))
      if (/^[0-9a-f]{2}$/.test(dir))
        for (const name of readdirSync(join(root, dir)))
          if (/^[0-9a-f]{38}(?:[0-9a-f]{24})?$/.test(name)) ids.push(dir + name);
  } catch {
    return null;
  }
  const damaged = new Set<string>();
  if (ids.length === 0) return damaged;
  const run = await runGitPastLocks(
    target,
    ['cat-file', '--batch-check=%(objectname) %(objecttype)'],
    stop,
    `${ids.join('\n')}\n`,
  );
  if (run.code !== 0) return null;
  for (const line of run.stdout.toString('latin1').split('\n')) {
    const [id, type] = line.split(' ');
    if (id && type === 'missing') damaged.add(id);
  }
  return damaged;
}

const QUESTION = 0x3f;
const NEWLINE_QUESTION = Buffer.from('\n?');

/** The lost objects under `commit`, by walking its trees (see `lostUnder`). */
async function walkLostUnder(target: GitTarget, commit: string, stop: AbortSignal): Promise<LostObject[]> {
  const root = await runGitPastLocks(target, ['rev-parse', '--verify', '--quiet', `${commit}^{tree}`], stop);
  if (root.code !== 0) return [{ id: commit, path: Buffer.alloc(0), kind: 'folder' }];
  const lost: LostObject[] = [];
  const files: { id: string; path: Buffer }[] = [];
  let level: { id: string; path: Buffer }[] = [{ id: root.stdout.toString('latin1').trim(), path: Buffer.alloc(0) }];
  while (level.length > 0) {
    const read = await readTrees(
      target,
      level.map((at) => at.id),
      stop,
    );
    const next: typeof level = [];
    for (const at of level) {
      const entries = read.get(at.id) ?? null;
      if (entries === null) {
        lost.push({ ...at, kind: 'folder' });
        continue;
      }
      for (const entry of entries) {
        const path = at.path.length === 0 ? entry.name : Buffer.concat([at.path, SLASH, entry.name]);
        if (entry.mode === TREE_MODE) next.push({ id: entry.id, path });
        else if (entry.mode !== SUBMODULE_MODE) files.push({ id: entry.id, path });
      }
    }
    level = next;
  }
  const present = await blobsPresent(
    target,
    files.map((f) => f.id),
    stop,
  );
  for (const file of files) if (!present.has(file.id)) lost.push({ ...file, kind: 'file' });
  return lost;
}

/** The lost objects under the checkpoint ref's head, when it names one (null: no head, or nothing lost). */
export interface LostUnderHead {
  readonly checkpoint: string;
  readonly lost: readonly LostObject[];
}

export async function lostUnderHead(target: GitTarget, stop: AbortSignal): Promise<LostUnderHead | null> {
  const head = refInFiles(target.gitDir, CHECKPOINT_REF);
  if (typeof head !== 'string') return null;
  const lost = await lostUnder(target, head, stop);
  return lost.length === 0 ? null : { checkpoint: head, lost };
}

/** Up to this many lost paths are named in what the user is told; the rest are counted. */
const NAMED = 5;

/** The lost objects in words: `a.txt, the folder sub/deeper and 3 more`. */
export function lostText(lost: readonly LostObject[]): string {
  const named = lost
    .slice(0, NAMED)
    .map((object) =>
      object.path.length === 0
        ? 'its top folder'
        : object.kind === 'folder'
          ? `the folder ${pathText(object.path)}`
          : pathText(object.path),
    );
  const more = lost.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

/** The trees `ids` by id (null for one that cannot be read), through one `cat-file --batch`. */
async function readTrees(
  target: GitTarget,
  ids: readonly string[],
  stop: AbortSignal,
): Promise<Map<string, ReturnType<typeof parseTree> | null>> {
  const unique = [...new Set(ids)];
  const read = new Map<string, ReturnType<typeof parseTree> | null>();
  const run = await runGitPastLocks(target, ['cat-file', '--batch'], stop, `${unique.join('\n')}\n`);
  if (run.code === 0) {
    let out = run.stdout;
    for (const id of unique) {
      const answer = catFileObject(out);
      if (answer === null) break;
      out = out.subarray(answer.used);
      read.set(id, answer.value?.type === 'tree' ? parsed(answer.value.body) : null);
    }
  }
  // git stops at an object it cannot inflate (a loose file cut inside its body): each is asked alone.
  for (const id of unique) {
    if (read.has(id)) continue;
    const one = await runGitPastLocks(target, ['cat-file', 'tree', id], stop);
    read.set(id, one.code === 0 ? parsed(one.stdout) : null);
  }
  return read;
}

function parsed(body: Buffer): ReturnType<typeof parseTree> | null {
  try {
    return parseTree(body);
  } catch {
    return null;
  }
}

/** Which of the blobs `ids` git can find and read the header of. */
async function blobsPresent(target: GitTarget, ids: readonly string[], stop: AbortSignal): Promise<Set<string>> {
  const unique = [...new Set(ids)];
  const present = new Set<string>();
  if (unique.length === 0) return present;
  const run = await runGitPastLocks(
    target,
    ['cat-file', '--batch-check=%(objectname) %(objecttype)'],
    stop,
    `${unique.join('\n')}\n`,
  );
  const answered = new Set<string>();
  for (const line of run.stdout.toString('latin1').split('\n')) {
    const [id, type] = line.split(' ');
    if (!id) continue;
    answered.add(id);
    if (type === 'blob') present.add(id);
  }
  // git stopped part way (an object it could not read at all): the rest are asked alone.
  if (run.code !== 0)
    for (const id of unique) {
      if (answered.has(id)) continue;
      const one = await runGitPastLocks(target, ['cat-file', '-t', id], stop);
      if (one.code === 0 && one.stdout.toString('latin1').trim() === 'blob') present.add(id);
    }
  return present;
}

const SLASH = Buffer.from('/');
const SUBMODULE_MODE = '160000';

/**
 * Throws, naming them, when files or folders a restore to `id` needs are lost: those of
 * `writes` (the paths the plan would write), or any when the plan could not be made (`failed`:
 * comparing trees stops at a lost folder). Otherwise returns (a lost object the restore does not
 * need is not in the way: the workspace already holds that file as the checkpoint does).
 */
export async function refuseLostInRestore(
  target: GitTarget,
  id: string,
  writes: readonly Buffer[] | null,
  stop: AbortSignal,
  failed?: unknown,
): Promise<void> {
  if (writes !== null && writes.length === 0) return;
  const lost = await lostUnder(target, id, stop);
  const keys = writes === null ? null : new Set(writes.map((path) => path.toString('latin1')));
  const needed = lost.filter((object) => keys === null || keys.has(object.path.toString('latin1')));
  if (needed.length === 0) {
    if (failed !== undefined) throw failed;
    return;
  }
  throw new Error(
    `checkpoint ${id.slice(0, 12)} cannot be restored whole: ${lostText(needed)} ${needed.length === 1 ? 'is' : 'are'} lost from ${target.gitDir} (a crash before ${needed.length === 1 ? 'it' : 'they'} reached the disk, or removed); nothing was written. Restore to another point of the session`,
  );
}

/**
 * Removes the loose files of lost objects that are there but do not read (left empty or cut
 * short): git writes an object only when no file holds its name, so the scan after would name
 * the damaged file again instead of writing the object anew. git makes a loose object whole
 * under a temp name before it links it in, so a named file that does not read is damaged, not
 * one being written; each is asked again just before it is removed, so that one another tole
 * wrote meanwhile in the place of a missing one is kept.
 */
export async function removeDamagedLoose(
  target: GitTarget,
  lost: readonly LostObject[],
  stop: AbortSignal,
): Promise<void> {
  for (const object of lost) {
    const loose = join(target.gitDir, 'objects', object.id.slice(0, 2), object.id.slice(2));
    if (!existsSync(loose)) continue;
    const reads = await runGitPastLocks(target, ['cat-file', '-t', object.id], stop);
    if (reads.code !== 0) rmSync(loose, { force: true });
  }
}
