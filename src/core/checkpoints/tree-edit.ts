import { createHash } from 'node:crypto';
import { pathKey } from './path-bytes';

/**
 * A new checkpoint tree made from an old one and a few changed paths: only the trees on the
 * changed paths are read and written again (a path four folders deep: five trees), whatever the
 * size of the rest. The reading and writing of tree objects is given (git's, in
 * checkpoint-store.ts), so that this is only the editing.
 */

/** One entry of a git tree: its mode as git writes it (`100644`, `40000` for a tree), its name's bytes and its object id. */
export interface TreeEntry {
  readonly mode: string;
  readonly name: Buffer;
  readonly id: string;
}

interface TreeObjects {
  read(id: string): Promise<readonly TreeEntry[]>;
}

/** A tree to write: its id (worked out here, as git will) and its entries in git's order. */
export interface NewTree {
  readonly id: string;
  readonly entries: readonly TreeEntry[];
}

/** A path's new content (a blob's mode and id), or null: the path is gone. */
export interface PathChange {
  readonly path: Buffer;
  readonly entry: { readonly mode: string; readonly id: string } | null;
}

export const TREE_MODE = '40000';

/**
 * The id of `root` with `changes` made, and the trees to write for it (each after the trees it
 * holds), or null when the changes do not fit the tree as it is: a change below a path the tree
 * holds as a file, or one path changed both as a file and as a folder. Then only a scan of the
 * workspace can say what the tree should be. The ids are worked out here, so that the trees can
 * go to git in one write; the caller checks that git made the same ids.
 */
export async function editTree(
  objects: TreeObjects,
  root: string,
  changes: readonly PathChange[],
): Promise<{ readonly id: string; readonly trees: readonly NewTree[] } | null> {
  const top = trieOf(changes);
  if (top === null) return null;
  const trees: NewTree[] = [];
  const edited = await editNode(objects, root, top, trees);
  if (edited === CONFLICT) return null;
  return { id: edited ?? newTree([], trees), trees };
}

interface Node {
  /** The change at this very path; undefined when only paths below it change. */
  change?: PathChange['entry'];
  readonly below: Map<string, { readonly name: Buffer; readonly node: Node }>;
}

function trieOf(changes: readonly PathChange[]): Node | null {
  const top: Node = { below: new Map() };
  for (const { path, entry } of changes) {
    let node = top;
    for (const name of components(path)) {
      if (node.change !== undefined) return null;
      let next = node.below.get(pathKey(name));
      if (!next) {
        next = { name, node: { below: new Map() } };
        node.below.set(pathKey(name), next);
      }
      node = next.node;
    }
    if (node.below.size > 0) return null;
    node.change = entry;
  }
  return top;
}

function components(path: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let slash = path.indexOf(0x2f); slash >= 0; slash = path.indexOf(0x2f, start)) {
    parts.push(path.subarray(start, slash));
    start = slash + 1;
  }
  parts.push(path.subarray(start));
  return parts;
}

const CONFLICT = Symbol('conflict');

/** The edited tree's id, null when it is left empty (git keeps no empty folder), or CONFLICT. */
async function editNode(
  objects: TreeObjects,
  tree: string | null,
  node: Node,
  trees: NewTree[],
): Promise<string | null | typeof CONFLICT> {
  const entries = new Map<string, TreeEntry>();
  if (tree !== null) for (const entry of await objects.read(tree)) entries.set(pathKey(entry.name), entry);
  let changed = false;
  for (const [key, { name, node: child }] of node.below) {
    const existing = entries.get(key);
    if (child.change !== undefined) {
      if (child.change === null) {
        changed = entries.delete(key) || changed;
      } else if (existing?.mode !== child.change.mode || existing.id !== child.change.id) {
        entries.set(key, { name, ...child.change });
        changed = true;
      }
      continue;
    }
    // A folder now where the tree holds a file: the folder's other files are not known here.
    if (existing !== undefined && existing.mode !== TREE_MODE) return CONFLICT;
    const sub = await editNode(objects, existing?.id ?? null, child, trees);
    if (sub === CONFLICT) return CONFLICT;
    if (sub === (existing?.id ?? null)) continue;
    if (sub === null) entries.delete(key);
    else entries.set(key, { mode: TREE_MODE, name, id: sub });
    changed = true;
  }
  if (!changed) return tree;
  return entries.size === 0 ? null : newTree([...entries.values()], trees);
}

/** Adds a tree of `entries` to `trees` and returns its id: git's SHA-1 of the tree object. */
function newTree(entries: TreeEntry[], trees: NewTree[]): string {
  const sorted = entries.sort((a, b) => Buffer.compare(orderName(a), orderName(b)));
  const body = treeBody(sorted);
  const id = createHash('sha1').update(`tree ${body.length}\0`).update(body).digest('hex');
  trees.push({ id, entries: sorted });
  return id;
}

/** A tree object's body: `<mode> <name>\0<20-byte id>` for each of `entries`, given in git's order. */
export function treeBody(entries: readonly TreeEntry[]): Buffer {
  return Buffer.concat(
    entries.flatMap((e) => [Buffer.from(`${e.mode} `, 'latin1'), e.name, NUL, Buffer.from(e.id, 'hex')]),
  );
}

/** git orders a tree's entries by name, a folder's as if it ended in `/`. */
function orderName(entry: TreeEntry): Buffer {
  return entry.mode === TREE_MODE ? Buffer.concat([entry.name, SLASH]) : entry.name;
}

const SLASH = Buffer.from('/');

/** A tree object's body as entries (`<mode> <name>\0<20-byte id>` each). */
export function parseTree(body: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const nul = body.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > body.length) throw new Error('a checkpoint tree object could not be read');
    entries.push({
      mode: body.subarray(at, space).toString('latin1'),
      name: Buffer.from(body.subarray(space + 1, nul)),
      id: body.subarray(nul + 1, nul + 21).toString('hex'),
    });
    at = nul + 21;
  }
  return entries;
}

const NUL = Buffer.from([0]);
