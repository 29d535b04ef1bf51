// Preload for the patches bench (`node --import ./bench/cpu-at-exit.mjs dist/tole.js --version`):
// when the process exits, prints its CPU time (user + system, ms) and its peak resident memory
// (MB) to stderr, which is a pipe there (a synchronous write on Linux).
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  const peak = process.resourceUsage().maxRSS / 1024;
  process.stderr.write(`\ncpu-at-exit ${((user + system) / 1000).toFixed(1)} ms maxrss ${peak.toFixed(1)} MB\n`);
});
