/** At most this many prompts wait behind a running turn. */
export const MAX_QUEUED_PROMPTS = 20;

/**
 * What the session's commands send, steer and queue prompts through: the host's runner of turns
 * (the screen's turn controller), which holds the turn lock: one turn, or one piece of work in a
 * turn's place, at a time.
 */
export interface PromptRunner {
  /** What runs now: nothing, a prompt's turn (it can take steering), or other work in a turn's place (a resume, a `/compact`). */
  readonly work: 'none' | 'turn' | 'other';
  /** The prompts waiting for the running work to end, in the order they go. */
  readonly queued: readonly string[];
  /** Starts a turn for the prompt (a `!command` runs in the shell); false when something runs already. */
  start(prompt: string): boolean;
  /** Puts a prompt at the end of the queue. */
  enqueue(prompt: string): void;
  /** Takes the queued prompt at `index` out of the queue; null when there is none. */
  dequeue(index: number): string | null;
  /** Sends text into the running turn for its next model call (again: replaces it); false when the turn takes none. */
  steer(text: string): boolean;
}
