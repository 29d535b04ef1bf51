import { useEffect, useMemo, useState } from 'react';
import type { SessionStore } from '../../core/storage/session-store';
import { systemClock } from '../../core/clock';
import { TASK_TOOL } from '../../core/session/task-tool-name';
import { ChildUsageBook, type ChildEventSource, type ChildUsage } from './child-usage';

/**
 * The session's sub-agents' usage: read from their files when the screen opens and whenever the
 * parent settles a `task` call, followed from their events while they run.
 */
export function useChildUsage(store: SessionStore, source: ChildEventSource | undefined): readonly ChildUsage[] {
  const book = useMemo(() => new ChildUsageBook(store, systemClock), [store]);
  const [version, setVersion] = useState(book.version);
  useEffect(() => {
    // After the first frame: the files of the children that ran before are read then.
    book.reload();
    setVersion(book.version);
    const settled = store.onCommit((records) => {
      const taskSettled = records.some(
        (r) => r.kind === 'entry' && r.type === 'tool_result' && (r.payload as { tool?: unknown }).tool === TASK_TOOL,
      );
      if (!taskSettled) return;
      book.reload();
      setVersion(book.version);
    });
    const heard =
      source?.onChildEvent((event) => {
        const before = book.version;
        book.add(event);
        if (book.version !== before) setVersion(book.version);
      }) ?? (() => {});
    return () => {
      settled();
      heard();
    };
  }, [store, source, book]);
  return useMemo(() => book.list(), [book, version]);
}
