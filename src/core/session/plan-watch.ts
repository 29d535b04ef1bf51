import type { SessionStore } from '../storage/session-store';
import type { EventSink } from './events';
import { taskStateAt, type TaskState } from './task-state';

/**
 * Follows the checked-out branch's task state through a turn and tells the host when the plan
 * changed (a `plan` event: the screen, `--output json`). The state itself is always derived
 * from the entries; this only remembers which plan the host was last told about.
 */
export class PlanWatch {
  private told: string | null;

  constructor(private readonly store: SessionStore) {
    this.told = taskStateAt(store).planEntryId;
  }

  /** The task state now, announced when its plan is not the one last announced. */
  check(emit: EventSink): TaskState {
    const state = taskStateAt(this.store);
    if (state.planEntryId !== this.told && state.planEntryId !== null) {
      this.told = state.planEntryId;
      emit({
        type: 'plan',
        entryId: state.planEntryId,
        source: state.source ?? 'tool',
        plan: state.plan,
        explanation: state.explanation,
        current: state.current,
      });
    }
    return state;
  }
}
