#!/usr/bin/env node
// Where the peer harness's "launch → first full frame" goes for tole: launches the built tole as
// the harness does (a new window of a private tmux server, 120x40, `sh -c "exec env … node
// tole.js --model fake-model"`, the screen polled with `tmux capture-pane` every 20 ms until
// "type a prompt" shows) with bench/harness-launch-marks.cjs preloaded, and prints each launch's
// steps in ms from the launch: the tmux window made, node's process start, node's own start done,
// the sandbox try spawned, the screen's script compiled, the first frame written (CPU so far, and
// how long the event loop was idle before it), and the poll that saw it.
// usage: node bench/harness-launch.mjs [runs=5] [--fresh-cache] [--tole PATH]
//   --fresh-cache: every launch gets an empty cache folder (a first start after install).
// A warm-up launch (not printed) fills the code cache first. Needs tmux. Temp folders are removed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
const tole = option('--tole', join(here, '..', 'dist', 'tole.js'));
const marks = join(here, 'harness-launch-marks.cjs');
const root = mkdtempSync(join(tmpdir(), 'tole-harness-launch-'));
const home = join(root, 'home');
const work = join(root, 'work');
mkdirSync(home);
mkdirSync(work);
const socket = `tole-launch-${process.pid}`;
const tmux = (...a) => execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8' });
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** One launch: the marks' lines as [ms since launch, cpu ms, step], and when the poll saw the frame. */
async function launch(i) {
  const log = join(root, `marks-${i}.txt`);
  const cache = flag('--fresh-cache') ? join(root, `cache-${i}`) : join(home, '.cache');
  // As the harness's tole command (bench/peers.mjs), with an unused port for the server: nothing
  // before the first frame talks to it.
  const command =
    `exec env HOME=${home} XDG_CONFIG_HOME=${home}/.config XDG_CACHE_HOME=${cache} TOLE_HOME=${home} ` +
    'COLORTERM=truecolor LANG=C.UTF-8 NO_UPDATE_NOTIFIER=1 OPENAI_BASE_URL=http://127.0.0.1:9/v1 ' +
    `OPENAI_API_KEY=fake-key LAUNCH_MARKS=${log} NODE_OPTIONS=--require=${marks} node ${tole} --model fake-model`;
  const t0 = now();
  const pane = tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'bench', '-c', work, command).trim();
  const made = now() - t0;
  let seen = null;
  let polls = 0;
  while (seen === null && now() - t0 < 30_000) {
    const t = now();
    polls++;
    if (tmux('capture-pane', '-p', '-t', pane).includes('type a prompt')) seen = now() - t0;
    else await sleep(Math.max(0, t + 20 - now()));
  }
  // Long enough for both code caches to be written (the screen's 300 ms after the first frame,
  // the later script's 2 s after it loads, right after the frame).
  await sleep(2500);
  tmux('kill-window', '-t', pane);
  await sleep(300);
  const steps = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [at, cpu, ...what] = line.split(' ');
      return [Number(at) - t0, Number(cpu), what.join(' ')];
    });
  return { made, seen, polls, steps };
}

tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'bench', '-x', '120', '-y', '40', 'sleep 7200');
const rows = [];
try {
  for (let i = -1; i < runs; i++) {
    const run = await launch(i);
    if (i < 0) continue;
    const at = (prefix) => run.steps.find(([, , what]) => what.startsWith(prefix));
    const frame = at('frame');
    rows.push({
      made: run.made,
      origin: at('origin')?.[0],
      node: at('preload')?.[0],
      nodeCpu: at('preload')?.[1],
      compiled: at('compiled')?.[0],
      frame: frame?.[0],
      frameCpu: frame?.[1],
      seen: run.seen,
    });
    console.log(
      `launch ${i}: window made +${run.made.toFixed(1)} ms, frame seen +${run.seen?.toFixed(1)} ms (${run.polls} polls)`,
    );
    for (const [ms, cpu, what] of run.steps)
      if (!what.startsWith('write'))
        console.log(`  +${ms.toFixed(1).padStart(6)} ms  cpu ${String(cpu).padStart(6)} ms  ${what}`);
  }
} finally {
  try {
    tmux('kill-server');
  } catch {}
  rmSync(root, { recursive: true, force: true });
}
const m = (key) => median(rows.map((r) => r[key]).filter((x) => x !== undefined && x !== null));
console.log(
  `medians of ${rows.length}: window made ${m('made').toFixed(1)}, process start ${m('origin').toFixed(1)}, ` +
    `node's own start done ${m('node').toFixed(1)} (cpu ${m('nodeCpu').toFixed(1)}), screen script compiled ${m('compiled').toFixed(1)}, ` +
    `first frame written ${m('frame').toFixed(1)} (cpu ${m('frameCpu').toFixed(1)}), seen ${m('seen').toFixed(1)} ms`,
);
