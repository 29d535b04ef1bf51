import { useMemo, useRef } from 'react';
import { TaskStateFold, type TaskState } from '../../core/session/task-state';
import type { SessionView } from './use-session-view';

/**
 * The checked-out branch's task state (its plan, step and last action), live: folded along the
 * path, reading only the entries added since the last frame while the path grows.
 */
export function useTaskState(view: SessionView): TaskState {
  const fold = useRef<TaskStateFold | null>(null);
  return useMemo(() => {
    fold.current ??= new TaskStateFold();
    return fold.current.follow(view.path);
  }, [view.path]);
}
