/**
 * `npm run sim -- --seeds N [--from S]` runs N schedules (seeds S, S+1, ...; S random unless
 * given) and prints schedules per second; `npm run sim -- --seed S` replays one with its trace.
 * `--plant skip-fdatasync` runs with that bug planted in the simulated disk. Exit 1 on a failure,
 * naming the seed that replays it.
 */
import { runSchedule } from './simulate';
import type { PlantedBug } from './sim-disk';

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const planted = (flag('--plant') ?? null) as PlantedBug;
const one = flag('--seed');

if (one !== undefined) {
  const result = await runSchedule(Number(one), { planted, trace: (line) => console.log(line) });
  console.log(
    result.problems.length === 0
      ? `seed ${one}: ok (${result.lifetimes} lifetimes, ${result.crashes} crashes, ${result.turns} turns, ${result.commits} commits)`
      : `seed ${one}: FAILED\n${result.problems.join('\n')}`,
  );
  process.exit(result.problems.length === 0 ? 0 : 1);
}

const count = Number(flag('--seeds') ?? 1000);
const from = Number(flag('--from') ?? Math.floor(Math.random() * 0x7fff_0000));
const started = performance.now();
const totals = { crashes: 0, turns: 0, commits: 0 };
for (let seed = from; seed < from + count; seed++) {
  const result = await runSchedule(seed, { planted });
  totals.crashes += result.crashes;
  totals.turns += result.turns;
  totals.commits += result.commits;
  if (result.problems.length > 0) {
    console.log(
      `seed ${seed}: FAILED\n${result.problems.join('\n')}\nreplay it: npm run sim -- --seed ${seed}${planted ? ` --plant ${planted}` : ''}`,
    );
    process.exit(1);
  }
}
const seconds = (performance.now() - started) / 1000;
console.log(
  `${count} schedules (seeds ${from}..${from + count - 1}) passed in ${seconds.toFixed(1)} s: ${(count / seconds).toFixed(0)} schedules/s; ${totals.crashes} crashes, ${totals.turns} turns, ${totals.commits} commits`,
);
