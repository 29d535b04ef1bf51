/**
 * Sessions of many prompt/answer turns, as the tests of reading a session from its tail write
 * them: each turn one commit of a user entry and an assistant answer; optionally a side branch
 * of one prompt from an early turn, the head back at the newest answer after it.
 */
import { AppendBatch, checkout, currentHead } from '../../src/core/session/cursor';
import type { SessionStore } from '../../src/core/storage/session-store';

export interface TurnsShape {
  /** The text of turn `i`'s prompt and answer. */
  readonly question: (i: number) => string;
  readonly answer: (i: number) => string;
  readonly model?: string;
  /**
   * The turn whose answer a side branch starts from (with the prompt 'a side question'), if any;
   * from the session's root when there are not that many turns.
   */
  readonly sideBranchAt?: number;
}

/** Commits `turns` turns of `shape` to `store`. */
export function commitTurns(store: SessionStore, turns: number, shape: TurnsShape): void {
  let early: string | null = null;
  for (let i = 0; i < turns; i++) {
    const batch = new AppendBatch(store);
    batch.entry('user', { text: shape.question(i) });
    batch.entry('assistant', { text: shape.answer(i), toolCalls: [], model: shape.model ?? 'm', finishReason: 'stop' });
    store.commit(batch.build());
    if (i === shape.sideBranchAt) early = batch.lastId;
  }
  if (shape.sideBranchAt === undefined) return;
  const leaf = currentHead(store).entryId!;
  checkout(store, early);
  const side = new AppendBatch(store);
  side.entry('user', { text: 'a side question' });
  store.commit(side.build());
  checkout(store, leaf);
}
