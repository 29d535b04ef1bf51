/**
 * A child process that, as another tole on the workspace would, changes one of its own files and
 * takes a checkpoint, `rounds` times, printing each result as a JSON line (`{round, ok, id}` or
 * `{round, ok: false, reason}`) once the checkpoint is taken. A test kills it mid-checkpoint.
 * Usage: checkpoint-looper.ts HOME WORKSPACE PREFIX ROUNDS
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';

const [home, workspaceRoot, prefix, rounds] = process.argv.slice(2);
const checkpoints = Checkpoints.create({ home: home!, workspaceRoot: workspaceRoot! });
for (let round = 0; round < Number(rounds); round++) {
  writeFileSync(join(workspaceRoot!, `${prefix}-${round % 4}.txt`), `${prefix} ${round}\n`);
  const taken = await checkpoints.take();
  process.stdout.write(
    `${JSON.stringify(taken.ok ? { round, ok: true, id: taken.id } : { round, ok: false, reason: taken.reason })}\n`,
  );
}
checkpoints.close();
