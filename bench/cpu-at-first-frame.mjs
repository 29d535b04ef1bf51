// Preload for the start bench (`node --import ./bench/cpu-at-first-frame.mjs dist/tole.js`): when
// the first whole frame (status bar and end of the synchronized update) is written, prints the
// process's CPU time so far (user + system, ms), its resident memory then and the minor page faults
// so far (each first touch of a 4 KiB page of memory: ~14-19 µs apiece on the 2-core VM tole is
// measured on, so a large part of a start there), and exits. CPU time moves less than wall time
// when the machine is shared.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const written = write(chunk, ...rest);
  const text = String(chunk);
  if (text.includes('seq ') && text.includes('\x1b[?2026l')) {
    const { user, system } = process.cpuUsage();
    const rss = process.memoryUsage.rss() / (1024 * 1024);
    const faults = process.resourceUsage().minorPageFault;
    process.stderr.write(
      `\ncpu-at-first-frame ${((user + system) / 1000).toFixed(1)} ms rss ${rss.toFixed(1)} MB faults ${faults}\n`,
    );
    process.exit(0);
  }
  return written;
};
