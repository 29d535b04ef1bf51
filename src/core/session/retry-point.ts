import type { TreeIndex } from '../tree/tree-index';

/**
 * Where "ask again" starts for an entry: an answer is asked again from what it followed (its
 * parent); a prompt is asked again from itself; anything else (a tool call, its result, a
 * notice) from the answer above it. Null when there is nothing to ask again from: no prompt on
 * the path, or a prompt a hook blocked.
 */
export function retryPoint(tree: TreeIndex, entryId: string): string | null {
  for (let entry = tree.get(entryId); entry; entry = entry.parentId === null ? undefined : tree.get(entry.parentId)) {
    if (entry.type === 'assistant') return entry.parentId;
    if (entry.type === 'user') return entry.payload.blocked === undefined ? entry.id : null;
  }
  return null;
}
