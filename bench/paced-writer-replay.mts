/**
 * The frame writer alone, on the frames of a paced reply: what Ink handed the writer while the
 * render benchmark's App streamed a 2,000-token reply at 5 ms a token (120x40), recorded once to
 * FILE, then written through a fresh FrameWriter `reps` times; prints the median CPU and the bytes.
 * `node --import tsx bench/paced-writer-replay.mts FILE [reps]` (records FILE when it is missing).
 * Rows' cells are not handed over by Ink's output here, so the writer tokenizes every changed row
 * itself: the figure is above the writer's share of a real frame, and compares builds, not stages.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FrameWriter } from '../src/tui/frame/frame-writer';
import { bundledApp } from './render';
import { NullTerminal } from './render-app';

const file = process.argv[2];
if (!file) throw new Error('usage: bench/paced-writer-replay.mts FILE [reps]');
if (!existsSync(file)) {
  const app = await bundledApp();
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-replay-'));
  try {
    const run = await app.streamedReplyRun(dir, 1, 2_000, 5);
    writeFileSync(file, JSON.stringify(run.writes));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const writes = JSON.parse(readFileSync(file, 'utf8')) as string[];
const reps = Number(process.argv[3] ?? 30);
const times: number[] = [];
let bytes = 0;
for (let i = 0; i < reps; i++) {
  const terminal = new NullTerminal();
  const writer = new FrameWriter(terminal as unknown as NodeJS.WriteStream);
  const started = process.cpuUsage();
  for (const data of writes) writer.stream.write(data);
  const used = process.cpuUsage(started);
  times.push((used.user + used.system) / 1000);
  bytes = terminal.bytes;
}
times.sort((a, b) => a - b);
const median = times[reps >> 1]!;
console.log(JSON.stringify({ writes: writes.length, bytes, medianMs: median, minMs: times[0] }));
