/**
 * V8 settings for the full-screen session, set before its script is compiled (src/cli/screen-loader.ts).
 *
 * A streamed reply's CPU on this 2-core kind of machine was about a third on V8's own worker
 * threads, most of it TurboFan compiling ~200-300 functions (React, Ink, the screen) once each during
 * the first reply, and the rest parallel garbage collection. What is set here trims that work
 * without changing what tole does:
 * - functions are optimized after twice as much running as V8's default, so code run only now and
 *   then (a key press, a commit, the end of a turn) stays in the baseline tiers; what runs on every
 *   frame is still optimized, a little later (4x V8's default made the first paced reply ~0.2 s
 *   cheaper and each later turn dearer, ~0.05 s a 500-token turn: bench/RESULTS.md);
 * - young-generation collections are done by the main thread alone: on two cores, helper tasks
 *   for each ~1 ms scavenge cost more in handing work out than they save;
 * - objects are never made in the old generation because the ones made before at the same place in
 *   the code all lived on (allocation-site pretenuring): a paced reply's caches (pieces, styled
 *   characters, rows' cells) are such places, and when V8 switched them to old objects it threw
 *   away the optimized code of the frame's row and cell functions (compiled for young ones) about
 *   4 s into the first reply, and compiled them again: 6-7 of its ~114 optimizing compiles, the
 *   largest ones (`--trace-deopt`: "code dependencies"); those objects are copied by a scavenge or
 *   two instead;
 * - the collector can be called (`youngCollection`), so the screen collects the young generation
 *   while it is idle after a turn: a scavenge that falls inside the next reply (5-20 ms on a busy
 *   machine, in about a quarter of the replies after 30 turns) then mostly does not happen there.
 *
 * Each flag is one V8 reads while it works (not only when the heap is made), so setting it at run
 * time takes effect. The code cache is checked against V8's flags: the cache is made and read with
 * these set, so it stays valid (a cache of a build before this one is made again once).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const SCREEN_V8_FLAGS: readonly string[] = [
  '--interrupt-budget=135168',
  '--no-parallel-scavenge',
  '--no-allocation-site-pretenuring',
  '--expose-gc',
];

let set = false;

/** Sets SCREEN_V8_FLAGS, once. */
export function setScreenV8Flags(): void {
  if (set) return;
  set = true;
  for (const flag of SCREEN_V8_FLAGS) setFlagsFromString(flag);
}

type Collect = (options: { type: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;
let collect: Collect | null | undefined;

/**
 * Runs a young-generation collection (a scavenge) now; false, doing nothing, when V8 does not offer
 * its collector (the flags were not set in this process). `--expose-gc` set at run time puts `gc`
 * on contexts made after it (new vm contexts, and worker threads: tole's only worker is its own
 * byte check), not on this one: it is taken from a new context, on the first call
 * (not at start: the first frame does not wait for it). The launcher and the screen script each
 * bundle this module, so whether the flags were set is asked of V8, not of a variable here.
 */
export function collectYoung(): boolean {
  if (collect === undefined) {
    const found: unknown = runInNewContext('typeof gc === "function" ? gc : null');
    collect = typeof found === 'function' ? (found as Collect) : null;
  }
  collect?.({ type: 'minor' });
  return collect !== null;
}
