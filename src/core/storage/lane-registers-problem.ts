import { HEAD_KEY, NS } from '../registers/namespaces';
import type { RegisterState } from '../registers/register-state';
import type { TreeIndex } from '../tree/tree-index';

/**
 * Whether the lane registers of a replayed session name only entries it holds: the head
 * (`lane.head`: the checked-out entry and its lane) and each lane's leaf (`lane.leaf`). tole
 * sets them only to entries it has just committed or that exist, so one naming an entry the
 * file does not hold means the file was changed outside tole (or damaged). No head or leaf can be
 * proved right in its place (a lane's leaf need not be where the user was), so such a session is
 * not opened for writing: the first entry appended under a missing head would be refused, and
 * one under a guessed head would go on from a place the user never chose. Read-only opens read it.
 *
 * Returns the problem in the words `tole check` and the writable open both use, or null.
 */
export function laneRegistersProblem(
  path: string,
  registers: RegisterState,
  tree: Pick<TreeIndex, 'has'>,
): string | null {
  const head = registers.get<unknown>(NS.laneHead, HEAD_KEY);
  if (head !== undefined) {
    const { lane, entryId } = (head ?? {}) as { lane?: unknown; entryId?: unknown };
    if (
      typeof head !== 'object' ||
      head === null ||
      typeof lane !== 'string' ||
      !(entryId === null || typeof entryId === 'string')
    )
      return changedOutside(path, `its head (register ${NS.laneHead}) is ${describe(head)}, not an entry and its lane`);
    if (entryId !== null && !tree.has(entryId))
      return changedOutside(
        path,
        `its head (register ${NS.laneHead}) names entry ${entryId}, which is not in the file`,
      );
  }
  for (const [lane, cell] of registers.entries(NS.laneLeaf)) {
    if (typeof cell.value !== 'string')
      return changedOutside(
        path,
        `the leaf of lane ${lane} (register ${NS.laneLeaf}) is ${describe(cell.value)}, not an entry id`,
      );
    if (!tree.has(cell.value))
      return changedOutside(
        path,
        `the leaf of lane ${lane} (register ${NS.laneLeaf}) names entry ${cell.value}, which is not in the file`,
      );
  }
  return null;
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function changedOutside(path: string, what: string): string {
  return `session ${path}: ${what}: the file was changed outside tole or is damaged, and no entry can be proved the right one in its place, so tole does not write to it. To read what it holds: tole --resume ${path} --read-only, or tole export ${path} --format md --all; to go on writing, put back a copy of the file from before the change`;
}
