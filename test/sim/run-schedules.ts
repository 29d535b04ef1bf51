/**
 * Runs a range of seeds with a few schedules at once in one process. A schedule waited on the real
 * filesystem while tole's own file tools ran (about a fifth of its time, in a profile of 300
 * seeds), and the others used the processor meanwhile; since the simulator makes those calls
 * synchronously (sync-tool-fs.ts) a schedule hardly waits (1% of a shard's profile idle), and two
 * at once against one made no difference beyond the machine's noise. Each schedule has its own simulated disk, world,
 * clock, randomness and workspace directory, so what one does is the same whichever run beside it:
 * a failing seed replays alone (`npm run sim -- --seed S`).
 */
import { runSchedule, type SimOptions, type SimResult } from './simulate';

/** Schedules in flight at once: two filled the waits of one while the file tools' calls went through the thread pool. */
export const SCHEDULES_AT_ONCE = 2;

/** One seed's schedule: its result, or what it threw (a bug of the simulator's own, or a plant's). */
type Outcome = { readonly seed: number } & ({ readonly result: SimResult } | { readonly error: unknown });

async function outcomes(first: number, last: number, options: SimOptions, atOnce: number): Promise<Outcome[]> {
  const done: Outcome[] = [];
  let next = first;
  const lane = async (): Promise<void> => {
    for (let seed = next++; seed <= last; seed = next++) {
      try {
        done.push({ seed, result: await runSchedule(seed, options) });
      } catch (error) {
        done.push({ seed, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, atOnce) }, lane));
  return done.sort((a, b) => a.seed - b.seed);
}

function resultOf(outcome: Outcome): SimResult {
  if ('error' in outcome) throw outcome.error;
  return outcome.result;
}

/** The results of seeds first..last, in seed order; throws what the lowest seed that threw threw, once all have ended. */
export async function runSchedules(
  first: number,
  last: number,
  options: SimOptions = {},
  atOnce = SCHEDULES_AT_ONCE,
): Promise<SimResult[]> {
  return (await outcomes(first, last, options, atOnce)).map(resultOf);
}

/**
 * The first seed from `first` up to `last` whose schedule finds a problem, or null: the seed a run
 * one by one would stop at (or what it would throw on the way), found `atOnce` seeds at a time.
 */
export async function firstFailing(
  first: number,
  last: number,
  options: SimOptions = {},
  atOnce = SCHEDULES_AT_ONCE,
): Promise<SimResult | null> {
  for (let from = first; from <= last; from += atOnce) {
    for (const outcome of await outcomes(from, Math.min(last, from + atOnce - 1), options, atOnce)) {
      const result = resultOf(outcome);
      if (result.problems.length > 0) return result;
    }
  }
  return null;
}
