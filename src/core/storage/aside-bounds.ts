/**
 * The sizes between which a JSONL session's lines are checked by a worker beside the replay
 * (jsonl-replay-aside.ts), and so also checked early when `--resume` names the file
 * (early-check.ts). A module of its own, with no imports, so the small entry can read them
 * without loading the replay.
 */

/** Smaller files replay on one thread: a worker takes longer to start than their check takes. */
export const ASIDE_MIN_BYTES = 8 * 1024 * 1024;
/** Larger files replay on one thread, read in pieces (one buffer this size is as far as it goes). */
export const ASIDE_MAX_BYTES = 1024 * 1024 * 1024;
