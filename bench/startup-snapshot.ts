/**
 * Would a V8 startup snapshot of the screen's modules start tole faster than its code cache?
 * Node 20 can start from a user-land snapshot (`node --snapshot-blob B --build-snapshot entry.js`,
 * then `node --snapshot-blob B script.js`): the heap left by the entry, the screen's modules
 * evaluated, is deserialized instead of built. This measures, in fresh processes, the moment the
 * screen's script is ready (its modules evaluated and Yoga instantiated, as before tole's first
 * render) both ways:
 * - code cache: dist/screen.cjs read, compiled with V8's cached code from a first run, its top
 *   level run (what src/cli/screen-loader.ts does);
 * - snapshot: a copy of dist/screen.cjs whose Yoga is instantiated on first use (the snapshot
 *   builder has no WebAssembly), evaluated into a blob at build time; the run only instantiates Yoga;
 * beside a bare node and a bare node started from a snapshot of an empty script (what any blob
 * costs by itself). Each process prints its `process.uptime()` (from before V8 starts, so a blob's
 * deserialization counts) and its CPU time then.
 * Run alone with `npm run build && node --import tsx bench/run.mts snapshot`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleavedMedians } from './startup';
import type { Row } from './storage';

const SCREEN = join(import.meta.dirname, '..', 'dist', 'screen.cjs');
const RUNS = 9;

/** How Yoga is loaded in dist/screen.cjs (scripts/yoga-sync-plugin.mjs), and the same deferred to its first use. */
const YOGA_AT_LOAD = `yoga_wasm_base64_esm_default(yogaModule);
if (typeof yogaModule.Node !== "function") throw new Error("yoga-sync: Yoga did not load at once");
var Yoga = wrapAssembly(yogaModule);
var yoga_layout_default = Yoga;`;
const YOGA_ON_USE = `var Yoga = null;
var yoga_layout_default = new Proxy({}, { get(_, key) { if (Yoga === null) { yoga_wasm_base64_esm_default(yogaModule); Yoga = wrapAssembly(yogaModule); } return Yoga[key]; } });
globalThis.__benchYoga = () => yoga_layout_default.Node;`;

/** Prints the moment it runs: uptime and CPU, in ms. */
const REPORT = `const { user, system } = process.cpuUsage();
console.log(JSON.stringify({ ms: process.uptime() * 1000, cpuMs: (user + system) / 1000 }));`;

/** Evaluates the screen's script as screen-loader does, with the code cache at argv[3] (written when absent). */
const CODE_CACHE_RUN = `const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname } = require('node:path');
const { Script } = require('node:vm');
const [file, cacheFile] = process.argv.slice(2);
const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
const script = new Script(readFileSync(file).toString('latin1'), { filename: file, ...(cachedData ? { cachedData } : {}) });
if (cachedData && script.cachedDataRejected) throw new Error('the code cache was rejected');
const loaded = { exports: {} };
script.runInThisContext()(loaded.exports, createRequire(file), loaded, file, dirname(file), 'file://' + file);
if (typeof loaded.exports.runScreen !== 'function') throw new Error('no runScreen');
if (!cachedData) writeFileSync(cacheFile, script.createCachedData());
${REPORT}`;

/** The snapshot's entry: the screen's script evaluated, with builtins only (what the snapshot builder allows). */
const SNAPSHOT_ENTRY = `const { readFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { runInThisContext } = require('node:vm');
const file = process.env.BENCH_SCREEN;
const loaded = { exports: {} };
runInThisContext(readFileSync(file, 'latin1'), { filename: file })(loaded.exports, require, loaded, file, dirname(file), 'file://' + file);
globalThis.__benchScreen = loaded.exports;`;

/** Run from the snapshot: the screen's modules are there; Yoga is instantiated as the first render would. */
const SNAPSHOT_RUN = `if (typeof globalThis.__benchScreen?.runScreen !== 'function') throw new Error('not started from the snapshot');
globalThis.__benchYoga();
${REPORT}`;

interface Ready {
  readonly ms: number;
  readonly cpuMs: number;
}

function ready(args: readonly string[]): Ready {
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
}

function buildSnapshot(blob: string, entry: string, env: NodeJS.ProcessEnv): void {
  execFileSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', entry], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

export async function runSnapshotBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-snapshot-'));
  try {
    const screen = readFileSync(SCREEN, 'latin1');
    if (!screen.includes(YOGA_AT_LOAD))
      throw new Error(
        'bench/startup-snapshot: dist/screen.cjs no longer loads Yoga as this bench expects; update YOGA_AT_LOAD',
      );
    const deferred = join(dir, 'screen-yoga-on-use.cjs');
    writeFileSync(deferred, screen.replace(YOGA_AT_LOAD, YOGA_ON_USE), 'latin1');
    const file = (name: string, text: string): string => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const report = file('report.cjs', REPORT);
    const codeCacheRun = file('code-cache-run.cjs', CODE_CACHE_RUN);
    const snapshotRun = file('snapshot-run.cjs', SNAPSHOT_RUN);
    const screenBlob = join(dir, 'screen.blob');
    const emptyBlob = join(dir, 'empty.blob');
    buildSnapshot(screenBlob, file('snapshot-entry.cjs', SNAPSHOT_ENTRY), { ...process.env, BENCH_SCREEN: deferred });
    buildSnapshot(emptyBlob, file('empty-entry.cjs', 'globalThis.__benchEmpty = true;'), process.env);
    const cache = join(dir, 'screen.v8cache');
    ready([codeCacheRun, SCREEN, cache]);
    const starts: (() => Ready)[] = [
      () => ready([report]),
      () => ready(['--snapshot-blob', emptyBlob, report]),
      () => ready([codeCacheRun, SCREEN, cache]),
      () => ready(['--snapshot-blob', screenBlob, snapshotRun]),
    ];
    const [bare, empty, codeCache, snapshot] = await interleavedMedians(
      RUNS,
      starts.map((start) => async () => start().ms),
    );
    const [bareCpu, , codeCacheCpu, snapshotCpu] = await interleavedMedians(
      RUNS,
      starts.map((start) => async () => start().cpuMs),
    );
    const mb = (path: string): string => `${(readFileSync(path).length / 2 ** 20).toFixed(1)} MB`;
    return [
      {
        name: `node started from a snapshot of an empty script (${mb(emptyBlob)}), vs node's built-in start`,
        tole: empty!,
        baseline: bare!,
        unit: 'ms',
        ratio: empty! / bare!,
      },
      {
        name: `screen's script ready: startup snapshot (${mb(screenBlob)}) vs code cache (tole's way)`,
        tole: snapshot!,
        baseline: codeCache!,
        unit: 'ms',
        ratio: snapshot! / codeCache!,
      },
      {
        name: "CPU until the screen's script is ready: snapshot vs code cache",
        tole: snapshotCpu!,
        baseline: codeCacheCpu!,
        unit: 'ms CPU',
        ratio: snapshotCpu! / codeCacheCpu!,
      },
      {
        name: "screen's script ready from the code cache, vs a bare node",
        tole: codeCache!,
        baseline: bare!,
        unit: 'ms',
        ratio: codeCache! / bare!,
      },
      {
        name: "CPU until ready from the code cache, vs a bare node's",
        tole: codeCacheCpu!,
        baseline: bareCpu!,
        unit: 'ms CPU',
        ratio: codeCacheCpu! / bareCpu!,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
