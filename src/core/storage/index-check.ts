import { seededRandom, type Clock } from '../clock';
import { nodeFileOps, type FileOps } from './file-ops';
import type { StoredRecord } from './records';
import { type IndexKey, indexPathOf } from './session-index';
import { SessionStore } from './session-store';

/**
 * How the saved index beside a session file compares with the file: every value an open takes
 * from it (each entry with its payload, each usage row, each register's value and seq, the last
 * seq) is derived again by replaying the file itself, and the two must be the same.
 */
export type IndexVerdict =
  | { readonly kind: 'none' }
  /** There is one, and an open ignores it (damaged, stale, another file's): nothing is taken from it. */
  | { readonly kind: 'unused'; readonly path: string }
  | { readonly kind: 'matches'; readonly path: string; readonly bytes: number }
  | { readonly kind: 'mismatch'; readonly path: string; readonly bytes: number; readonly what: string };

const inertClock: Clock = { nowMs: () => 0, nowNs: () => 0n };
/** How much of a value a mismatch quotes. */
const QUOTE_CHARS = 120;

/** Opens `path` read-only the way a large file is opened (taking the index when it earns it) and compares it with `truth`, the file replayed whole. */
export function checkSavedIndex(path: string, truth: SessionStore, ops?: FileOps, indexKey?: IndexKey): IndexVerdict {
  const indexPath = indexPathOf(path);
  if ((ops ?? nodeFileOps).kindOf(indexPath) === null) return { kind: 'none' };
  let viaIndex: SessionStore;
  try {
    viaIndex = SessionStore.open(path, {
      readOnly: true,
      clock: inertClock,
      random: seededRandom(2),
      asideMinBytes: 0,
      ...(ops ? { ops } : {}),
      ...(indexKey ? { indexKey } : {}),
    });
  } catch (error) {
    return {
      kind: 'mismatch',
      path: indexPath,
      bytes: 0,
      what: `opening the file with it fails (${(error as Error)?.message ?? String(error)}) where replaying the file alone does not`,
    };
  }
  try {
    const bytes = viaIndex.indexedBytes;
    if (bytes === 0) return { kind: 'unused', path: indexPath };
    const what = firstDifference(truth, viaIndex);
    return what === null
      ? { kind: 'matches', path: indexPath, bytes }
      : { kind: 'mismatch', path: indexPath, bytes, what };
  } finally {
    viaIndex.close();
  }
}

/** The first value the two stores disagree on, in words, or null when they hold the same. */
function firstDifference(truth: SessionStore, viaIndex: SessionStore): string | null {
  if (truth.lastSeq !== viaIndex.lastSeq)
    return `the last seq is ${viaIndex.lastSeq} with the index and ${truth.lastSeq} in the file`;
  let fromIndex: StoredRecord[];
  try {
    fromIndex = viaIndex.liveRecords();
  } catch (error) {
    return `a value it points to cannot be read (${(error as Error)?.message ?? String(error)})`;
  }
  const fromFile = truth.liveRecords();
  const count = Math.max(fromFile.length, fromIndex.length);
  for (let at = 0; at < count; at++) {
    const file = fromFile[at];
    const index = fromIndex[at];
    const fileText = JSON.stringify(file);
    const indexText = JSON.stringify(index);
    if (fileText === indexText) continue;
    return `${describeRecord(file ?? index!)}: the index says ${quote(indexText)}, the file says ${quote(fileText)}`;
  }
  return null;
}

function describeRecord(record: StoredRecord): string {
  switch (record.kind) {
    case 'register':
      return `register ${record.namespace}/${record.key}`;
    case 'entry':
      return `entry ${record.id}`;
    default:
      return `${record.kind} at seq ${record.seq}`;
  }
}

function quote(text: string | undefined): string {
  if (text === undefined) return 'nothing';
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}...` : text;
}
