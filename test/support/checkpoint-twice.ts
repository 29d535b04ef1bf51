/**
 * A child process that takes two checkpoints of a workspace (changing a file in between) and
 * prints each result as a JSON line. Usage: checkpoint-twice.ts HOME WORKSPACE
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';

const [home, workspaceRoot] = process.argv.slice(2);
const checkpoints = Checkpoints.create({ home: home!, workspaceRoot: workspaceRoot! });
for (const round of [1, 2]) {
  writeFileSync(join(workspaceRoot!, 'a.txt'), `round ${round}\n`);
  process.stdout.write(`${JSON.stringify(await checkpoints.take())}\n`);
}
