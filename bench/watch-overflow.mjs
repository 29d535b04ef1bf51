/**
 * Why tole's checkpoints do not trust a change journal built on `fs.watch` (bench/RESULTS.md,
 * issue 34): while the event loop is busy, a child process makes more files in a watched folder
 * than inotify's queue holds (/proc/sys/fs/inotify/max_queued_events). The kernel drops the rest
 * and queues one IN_Q_OVERFLOW event; libuv discards that event, so the watcher sees fewer
 * events than files and no error. Run with `node bench/watch-overflow.mjs`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'tole-watch-overflow-'));
const queue = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'));
const files = queue + 4000;
let events = 0;
let errors = 0;
const last = join(dir, 'last');
const watcher = watch(dir, () => {
  // Once the loop reads the queue again, one more file: when its event arrives, every event
  // before it has been read.
  if (events++ === 0) setImmediate(() => writeFileSync(last, ''));
});
watcher.on('error', () => errors++);
// Synchronous: the loop reads no event until the child is done.
execFileSync(process.execPath, [
  '-e',
  `const fs = require('fs'); for (let i = 0; i < ${files}; i++) fs.closeSync(fs.openSync(${JSON.stringify(dir)} + '/f' + i, 'w'));`,
]);
const finish = (lastSeen) => {
  process.stdout.write(`${JSON.stringify({ queue, filesMade: files + 1, eventsSeen: events, errors, lastSeen })}\n`);
  watcher.close();
  clearTimeout(bound);
  rmSync(dir, { recursive: true, force: true });
};
// Bounds a run in which the last file's event is lost as well (the queue still full when it came).
const bound = setTimeout(() => finish(false), 30_000);
watcher.on('change', (_kind, name) => {
  if (name === 'last') finish(true);
});
