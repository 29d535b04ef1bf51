import { seededRandom, type Clock } from '../clock';
import { isStorageError } from '../storage/errors';
import type { SessionHeader } from '../storage/records';
import { SessionStore } from '../storage/session-store';
import { totalsOf } from '../usage/totals';
import { sessionName } from './session-name';

/** A session as `tole sessions` and the session picker list it. */
export interface SessionSummary {
  readonly id: string;
  readonly path: string;
  readonly cwd: string;
  readonly createdAt: number;
  readonly firstPrompt: string;
  /** What `/name` called it, or null. */
  readonly name: string | null;
  readonly entries: number;
  readonly branches: number;
  readonly costUsdMicros: number;
  /** Some call that used tokens had no price (an unknown or local model): the cost is a lower bound, shown `+?`. */
  readonly unpriced: boolean;
  /** Some call was cut off mid-stream: part of the cost is tole's estimate, shown `~`. */
  readonly estimated: boolean;
  /** Why it cannot be read (corrupt, newer version), or null. */
  readonly problem: string | null;
  /** Set for a sub-agent: its parent session, the call that started it and its profile. */
  readonly task: SubAgentOf | null;
}

interface SubAgentOf {
  readonly parentId: string;
  readonly callId: string;
  readonly agent: string | null;
}

function subAgentOf(header: SessionHeader): SubAgentOf | null {
  const { parent } = header;
  if (!parent?.task) return null;
  return { parentId: parent.sessionId, callId: parent.task.callId, agent: parent.task.agent };
}

/** Opens a session read-only (no lock, no writes) and sums it up; a file that cannot be read says why in `problem`. */
export function summariseSession(
  file: { readonly path: string; readonly header: SessionHeader },
  clock: Clock,
): SessionSummary {
  const base = {
    id: file.header.id,
    path: file.path,
    cwd: file.header.cwd,
    createdAt: file.header.createdAt,
    task: subAgentOf(file.header),
  };
  try {
    const store = SessionStore.open(file.path, { clock, random: seededRandom(1), readOnly: true });
    try {
      let firstPrompt = '';
      let leaves = 0;
      for (const entry of store.tree.all()) {
        if (!firstPrompt && entry.type === 'user') firstPrompt = entry.payload.text;
        if (store.tree.isLeaf(entry.id)) leaves++;
      }
      return {
        ...base,
        firstPrompt,
        name: sessionName(store),
        entries: store.tree.size,
        branches: leaves,
        ...costOf(totalsOf(store.usage)),
        problem: null,
      };
    } finally {
      store.close();
    }
  } catch (error) {
    if (!isStorageError(error)) throw error;
    return {
      ...base,
      firstPrompt: '',
      name: null,
      entries: 0,
      branches: 0,
      costUsdMicros: 0,
      unpriced: false,
      estimated: false,
      problem: error.message,
    };
  }
}

function costOf(totals: { readonly costUsdMicros: number; readonly unpriced: boolean; readonly estimated: boolean }) {
  return { costUsdMicros: totals.costUsdMicros, unpriced: totals.unpriced, estimated: totals.estimated };
}
