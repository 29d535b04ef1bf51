// Preload for bench/harness-launch.mjs (`NODE_OPTIONS=--require=…`; not a V8 flag, so tole's code
// cache is still taken): appends to $LAUNCH_MARKS one line per step of the start, each the wall
// clock in ms (performance.timeOrigin + now, comparable across processes), a name, and the
// process's CPU time so far. Steps: node's own clock origin (the process's start), this preload
// (node's own start done), each child process spawned and its exit, each vm.Script compiled
// (dist/screen.cjs from the code cache; later dist/later.cjs), and every write to stdout, the
// one that ends a synchronized update with the prompt's placeholder in it marked `frame` with
// the event loop's idle time so far (near zero: the start waited on nothing).
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');
const file = process.env.LAUNCH_MARKS;
const now = () => performance.timeOrigin + performance.now();
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return ((user + system) / 1000).toFixed(1);
};
const mark = (at, what, spent = cpu()) => fs.appendFileSync(file, `${at.toFixed(2)} ${spent} ${what}\n`);
// Node's clock starts with the process; the CPU it has used by then is not known.
mark(performance.timeOrigin, 'origin', '-');
mark(now(), 'preload');

const write = process.stdout.write.bind(process.stdout);
let framed = false;
process.stdout.write = (chunk, ...rest) => {
  const written = write(chunk, ...rest);
  const text = String(chunk);
  if (!framed && text.includes('type a prompt') && text.includes('\x1b[?2026l')) {
    framed = true;
    mark(now(), `frame ${Buffer.byteLength(text)} B idle ${performance.eventLoopUtilization().idle.toFixed(1)} ms`);
  } else mark(now(), `write ${Buffer.byteLength(text)} B`);
  return written;
};

const { syncBuiltinESMExports } = require('node:module');
const vm = require('node:vm');
const Script = vm.Script;
vm.Script = function MarkedScript(source, options) {
  mark(
    now(),
    `compile ${String(options?.filename ?? '')
      .split('/')
      .pop()}`,
  );
  const script = new Script(source, options);
  mark(now(), `compiled cache=${options?.cachedData ? (script.cachedDataRejected ? 'rejected' : 'taken') : 'none'}`);
  return script;
};
const childProcess = require('node:child_process');
const spawn = childProcess.spawn;
childProcess.spawn = function markedSpawn(program, ...rest) {
  mark(now(), `spawn ${program}`);
  const child = spawn.call(this, program, ...rest);
  child.on('exit', (code) => mark(now(), `exit ${program} ${code}`));
  return child;
};
syncBuiltinESMExports();
