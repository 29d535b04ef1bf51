/**
 * `node scripts/beside.mjs -- MAIN... -- SIDE... [-- SIDE...]`: runs MAIN with its output shown as it
 * comes, and each SIDE command beside it with its output kept and shown whole, under its command,
 * once MAIN has ended; exits with the first failing status in the order the commands are given (MAIN
 * first), 0 if all passed. `npm test` runs the type check and the lint beside vitest with it.
 * Hand-written (a spawn and a buffer each): the runners on the registry either interleave the
 * outputs or hold the main command's output back too.
 */
import { spawn } from 'node:child_process';

const commands = [];
for (const arg of process.argv.slice(2)) {
  if (arg === '--') commands.push([]);
  else if (commands.length === 0) commands.push([arg]);
  else commands.at(-1).push(arg);
}
const [main, ...sides] = commands.filter((command) => command.length > 0);
if (main === undefined) {
  console.error('usage: node scripts/beside.mjs -- MAIN... -- SIDE... [-- SIDE...]');
  process.exit(2);
}

/** The exit status of `command` (1 for a signal or a failure to start), with its output if kept. */
function run(command, keep) {
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(command[0], command.slice(1), { stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (keep) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    child.on('error', (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      resolve({ status: 1, output: Buffer.concat(chunks) });
    });
    child.on('close', (code) => resolve({ status: code ?? 1, output: Buffer.concat(chunks) }));
  });
}

const sideRuns = sides.map((command) => run(command, true));
const mainRun = await run(main, false);
const statuses = [mainRun.status];
for (const [at, sideRun] of sideRuns.entries()) {
  const { status, output } = await sideRun;
  statuses.push(status);
  process.stdout.write(`\n> ${sides[at].join(' ')}${status === 0 ? '' : ` (exit status ${status})`}\n`);
  process.stdout.write(output);
}
process.exitCode = statuses.find((status) => status !== 0) ?? 0;
