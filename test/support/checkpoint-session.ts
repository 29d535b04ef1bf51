/**
 * A second tole on a workspace: takes ROUNDS checkpoints, each after writing its own file NAME.txt
 * (round by round, alternating a scan and a known-path checkpoint, as a session's bash and
 * write_file calls do), prints each result as a JSON line, then prints `holding` and stays alive
 * with its checkpoint gits running (git-pipe.ts) until it is killed.
 * Usage: checkpoint-session.ts HOME WORKSPACE NAME ROUNDS
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';

const [home, workspaceRoot, name, rounds] = process.argv.slice(2);
const checkpoints = Checkpoints.create({ home: home!, workspaceRoot: workspaceRoot! });
for (let round = 1; round <= Number(rounds); round++) {
  const file = `${name}.txt`;
  writeFileSync(join(workspaceRoot!, file), `${name} round ${round}\n`);
  checkpoints.noteChanges([file]);
  const taken = await checkpoints.take(round % 2 === 0 ? 'known-paths' : 'scan');
  process.stdout.write(`${JSON.stringify({ round, ...taken })}\n`);
}
process.stdout.write('holding\n');
// Kept alive (the gits, idle, do not keep node running): the test kills this process.
setInterval(() => {}, 1 << 30);
