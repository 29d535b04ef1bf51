// Preload for the start bench (`node --import ./bench/cpu-at-first-frame.mjs dist/tole.js`): when
// the first whole frame (status bar and end of the synchronized update) is written, prints the
// process's CPU time so far (user + system, ms) and its resident memory then, and exits. CPU time moves less than wall time
// when the machine is shared.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const written = write(chunk, ...rest);
  const text = String(chunk);
  if (text.includes('seq ') && text.includes('\x1b[?2026l')) {
    const { user, system } = process.cpuUsage();
    const rss = process.memoryUsage.rss() / (1024 * 1024);
    process.stderr.write(`\ncpu-at-first-frame ${((user + system) / 1000).toFixed(1)} ms rss ${rss.toFixed(1)} MB\n`);
    process.exit(0);
  }
  return written;
};
