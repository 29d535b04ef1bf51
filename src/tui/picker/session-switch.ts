import type { PickerSession } from './picker-rows';

/** What the in-screen session picker (`/resume`) lists, as `tole --resume` lists it. */
export interface PickerList {
  readonly sessions: readonly PickerSession[];
  /** This directory: its sessions first. */
  readonly cwd: string;
  /** Shortens directories under it to `~`. */
  readonly home: string;
  readonly nowMs: number;
}

/** `/new`: a new session with the same settings; `/resume`: the session `ref` names (an id, a unique prefix of one, or a path). */
export type SwitchRequest = { readonly kind: 'new' } | { readonly kind: 'resume'; readonly ref: string };

/**
 * What the screen may ask of its host to change sessions without leaving the screen. `open`
 * resolves once the screen shows the other session (the one it leaves is closed, its lock let
 * go); it rejects with an Error whose message says why when that cannot be, and the open session
 * stays as it was.
 */
export interface SessionSwitching {
  list(): PickerList;
  open(request: SwitchRequest): Promise<void>;
}

/**
 * Why the screen cannot change sessions right now, or null: nothing in flight may be lost, so a
 * running turn (its tools, an approval it waits for, steering and queued prompts) or an open
 * prompt holds the session.
 */
export function switchBlocker(state: {
  readonly running: boolean;
  readonly approving: boolean;
  readonly queued: number;
  readonly dialogOpen: boolean;
}): string | null {
  if (state.approving) return 'a tool call waits for your approval: answer it (or Esc to stop the turn) first';
  if (state.running)
    return state.queued > 0
      ? `a turn is running with ${state.queued} prompt${state.queued === 1 ? '' : 's'} queued behind it: wait for them (or Esc to stop the turn) first`
      : 'a turn is running: wait for it to end (or Esc to stop it) first';
  if (state.dialogOpen) return 'the files prompt is open: answer it first';
  return null;
}
