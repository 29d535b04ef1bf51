import { useEffect, useState } from 'react';
import type { SessionStore } from '../core/storage/session-store';

/** A number that changes after every durable commit: the key that derived views memoise on. */
export function useStoreVersion(store: SessionStore): number {
  const [version, setVersion] = useState(store.lastSeq);
  useEffect(() => {
    setVersion(store.lastSeq);
    return store.onCommit(() => setVersion(store.lastSeq));
  }, [store]);
  return version;
}
