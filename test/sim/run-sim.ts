/**
 * `npm run sim -- --seeds N [--from S] [--keep-going]` runs N schedules (seeds S, S+1, ...; S
 * random unless given) and prints schedules per second; it stops at the first failure unless
 * `--keep-going`, which lists every failed seed; `npm run sim -- --seed S` replays one with its trace.
 * `--plant NAME` runs with a bug from the mutation list (plants.ts) planted; `--no-dir-fsync-eio`
 * keeps directory fsyncs from failing (sim-settings.ts). Exit 1 on a failure,
 * naming the seed that replays it.
 */
import { runSchedule } from './simulate';
import { plantNamed, type PlantName } from './plants';

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const planted = (flag('--plant') ?? null) as PlantName | null;
plantNamed(planted);
const one = flag('--seed');
const dirSync = process.argv.includes('--no-dir-fsync-eio') ? { dirSyncFailures: false } : {};

if (one !== undefined) {
  const result = await runSchedule(Number(one), { planted, ...dirSync, trace: (line) => console.log(line) });
  console.log(
    result.problems.length === 0
      ? `seed ${one}: ok (${result.lifetimes} lifetimes, ${result.crashes} crashes, ${result.turns} turns, ${result.commits} commits)`
      : `seed ${one}: FAILED\n${result.problems.join('\n')}`,
  );
  process.exit(result.problems.length === 0 ? 0 : 1);
}

const count = Number(flag('--seeds') ?? 1000);
const from = Number(flag('--from') ?? Math.floor(Math.random() * 0x7fff_0000));
const keepGoing = process.argv.includes('--keep-going');
const failed: number[] = [];
const started = performance.now();
const totals = {
  crashes: 0,
  turns: 0,
  commits: 0,
  corruptions: 0,
  refusedOpeners: 0,
  locksTaken: 0,
  changesRefused: 0,
  restores: 0,
  indexedOpens: 0,
  indexesRefused: 0,
  syncs: 0,
  syncsCut: 0,
};
const faultPoints: Record<string, number> = {};
const EMPTY_RESULT = { ...totals, faultPoints: {} as Record<string, number> };
for (let seed = from; seed < from + count; seed++) {
  // A schedule that throws (the simulator's own checks tripping over what a bug left) fails its seed.
  const result = await runSchedule(seed, { planted, ...dirSync }).catch((error: unknown) => ({
    ...EMPTY_RESULT,
    problems: [`the simulator threw: ${(error as Error)?.message ?? String(error)}`],
  }));
  totals.crashes += result.crashes;
  totals.turns += result.turns;
  totals.commits += result.commits;
  totals.corruptions += result.corruptions;
  totals.refusedOpeners += result.refusedOpeners;
  totals.locksTaken += result.locksTaken;
  totals.changesRefused += result.changesRefused;
  totals.indexedOpens += result.indexedOpens;
  totals.indexesRefused += result.indexesRefused;
  totals.syncs += result.syncs;
  totals.syncsCut += result.syncsCut;
  totals.restores += result.restores;
  for (const [point, n] of Object.entries(result.faultPoints)) faultPoints[point] = (faultPoints[point] ?? 0) + n;
  if (result.problems.length > 0) {
    failed.push(seed);
    const replay = `npm run sim -- --seed ${seed}${planted ? ` --plant ${planted}` : ''}${dirSync.dirSyncFailures === false ? ' --no-dir-fsync-eio' : ''}`;
    if (!keepGoing) {
      console.log(`seed ${seed}: FAILED\n${result.problems.join('\n')}\nreplay it: ${replay}`);
      process.exit(1);
    }
    console.log(`seed ${seed}: FAILED: ${result.problems[0]} (${replay})`);
  }
}
if (failed.length > 0) {
  console.log(`${failed.length} of ${count} schedules failed: seeds ${failed.join(', ')}`);
  process.exit(1);
}
const seconds = (performance.now() - started) / 1000;
console.log(
  `${count} schedules (seeds ${from}..${from + count - 1}) passed in ${seconds.toFixed(1)} s: ${(count / seconds).toFixed(0)} schedules/s; ${totals.crashes} crashes, ${totals.turns} turns, ${totals.commits} commits, ${totals.corruptions} rotten bytes refused, ${totals.refusedOpeners} second openers refused, ${totals.locksTaken} locks taken by tole unlock --force, ${totals.changesRefused} session files changed behind their writer refused, ${totals.restores} restores checked, ${totals.indexedOpens} opens from a saved index, ${totals.indexesRefused} rotten or forged indexes refused, ${totals.syncs} syncs to the team table (${totals.syncsCut} cut off midway); crashes at fault points: ${JSON.stringify(faultPoints)}`,
);
