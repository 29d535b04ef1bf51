/**
 * A child process that takes one checkpoint of a workspace with a given git binary and prints
 * how it went. Usage: checkpoint-taker.ts HOME WORKSPACE GIT
 */
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';

const [home, workspaceRoot, gitBinary] = process.argv.slice(2);
const checkpoints = Checkpoints.create({ home: home!, workspaceRoot: workspaceRoot!, gitBinary: gitBinary! });
const taken = await checkpoints.take();
process.stdout.write(`${taken.ok ? `ok ${taken.id}` : `failed ${taken.reason}`}\n`);
