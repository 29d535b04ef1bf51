// Preload for a CPU measure of the built tole (`node --require bench/thread-cpu.cjs dist/tole.js`,
// or through the peer harness: TOLE_BIN="--require <tole>/bench/thread-cpu.cjs <tole>/dist/tole.js"):
// appends to $THREAD_CPU (default /tmp/tole-thread-cpu.txt) every 500 ms one line: the wall clock
// in ms, the main thread's CPU seconds, the other threads' CPU seconds together (V8's background
// compiles and collector helpers, libuv's pool), and the main thread's user and system seconds
// apart. Read from /proc/self/task/*/stat (Linux only). Not a V8 flag, so tole's code cache is
// still taken. The difference of two lines is what each part spent between them: a paced reply
// showed its CPU split as ~70% main thread and ~30% V8's concurrent TurboFan compiles this way.
const fs = require('node:fs');
const file = process.env.THREAD_CPU ?? '/tmp/tole-thread-cpu.txt';
const pid = String(process.pid);
/** CPU seconds of a task from its stat line: fields 14 and 15 (utime, stime), in clock ticks of 1/100 s. */
function times(stat) {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}
function sample() {
  let main = { user: 0, system: 0 };
  let others = 0;
  for (const task of fs.readdirSync('/proc/self/task')) {
    let spent;
    try {
      spent = times(fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8'));
    } catch {
      continue; // the thread ended between the listing and the read
    }
    if (task === pid) main = spent;
    else others += spent.user + spent.system;
  }
  const total = (main.user + main.system).toFixed(2);
  fs.appendFileSync(
    file,
    `${Date.now()} main ${total} others ${others.toFixed(2)} user ${main.user.toFixed(2)} system ${main.system.toFixed(2)}\n`,
  );
}
setInterval(sample, 500).unref();
