/**
 * A child process that takes a scan checkpoint, then a known-path checkpoint of one file it
 * writes, and opens (creates) a mark file right after each checkpoint is taken: the point at which
 * a session names it. Run under strace, the marks place "the checkpoint is taken" among the
 * syscalls. Usage: checkpoint-marks.ts HOME WORKSPACE MARK_PREFIX
 */
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';

const [home, workspaceRoot, mark] = process.argv.slice(2);
const checkpoints = Checkpoints.create({ home: home!, workspaceRoot: workspaceRoot! });
const scan = await checkpoints.take();
closeSync(openSync(`${mark}-scan`, 'w'));
checkpoints.noteChanges(['named/new.txt']);
writeFileSync(join(workspaceRoot!, 'named', 'new.txt'), 'written by a call\n');
const known = await checkpoints.take('known-paths');
closeSync(openSync(`${mark}-known`, 'w'));
checkpoints.close();
process.stdout.write(`${JSON.stringify({ scan, known })}\n`);
