/**
 * Rendering benchmarks.
 * - render: CPU time to draw a 2,000-token reply streamed without delay into the App (120x40,
 *   a null terminal), in a session with 1 and with 50 finished turns before it. The screen
 *   draws only what is visible, so the ratio (50 turns / 1 turn) should stay near 1.
 * - memory: peak RSS (VmHWM) of the built tole right after the first frame of a ~100 MB session,
 *   beside the file's size.
 * Run alone with `npm run build && node --import tsx bench/render.ts`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
// @ts-expect-error a plain .mjs build helper without types
import { inkOutputPlugin } from '../scripts/ink-output-plugin.mjs';
import { RENDERER_PATCHES } from '../scripts/renderer-patches.mjs';
import type { RenderRun } from './render-app';
import { startUntil, TOLE } from './startup';
import { formatRows, writeReplayFile, type Row } from './storage';

export const TOKENS = 2_000;
const FEW = 1;
export const MANY = 50;
/** Interleaved rounds of each; the median is shown (a run draws only a few frames: CPU noise is large). */
const ROUNDS = 11;
const MEMORY_ROUNDS = 3;
export const PACED_DELAY_MS = 5;
const MB = 1024 * 1024;

type RenderModule = typeof import('./render-app');

/**
 * The App bundled as tole ships it: production React and the bundle's Ink output (`withInkOutput`);
 * `withInkLog` adds ink-resize's direct write of each frame (bench/build-patches.ts measures it).
 */
export async function bundledApp(withInkOutput = true, withInkLog = false): Promise<RenderModule> {
  const outDir = join(import.meta.dirname, 'out');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(
    outDir,
    `${withInkOutput ? 'render-app' : 'render-app-stock-output'}${withInkLog ? '-direct-log' : ''}.mjs`,
  );
  const empty = join(outDir, 'empty.js');
  writeFileSync(empty, 'export default {};\n');
  await build({
    entryPoints: [join(import.meta.dirname, 'render-app.tsx')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    alias: { 'react-devtools-core': empty },
    plugins: [
      ...(withInkOutput ? [inkOutputPlugin] : []),
      ...RENDERER_PATCHES.filter((plugin) => withInkLog && plugin.name === 'ink-resize'),
    ],
    external: ['better-sqlite3'],
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: {
      js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return (await import(`${pathToFileURL(outfile).href}?t=${Date.now()}`)) as RenderModule;
}

export async function runRenderBench(): Promise<Row[]> {
  const app = await bundledApp();
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-render-'));
  try {
    const run = async (turns: number, delayMs = 0): Promise<RenderRun> => {
      const sub = mkdtempSync(join(dir, `t${turns}-`));
      return app.streamedReplyRun(sub, turns, TOKENS, delayMs);
    };
    await run(FEW); // warm-up: JIT and caches, as a session that has been open a while
    const few: RenderRun[] = [];
    const many: RenderRun[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      few.push(await run(FEW));
      many.push(await run(MANY));
    }
    const a = medianRun(few);
    const b = medianRun(many);
    // Paced as a model streams (5 ms a token, ~10 s): frames are capped at 30 a second, so the
    // CPU should grow far less than the time does. One run each: they are long.
    const paced = await run(FEW, PACED_DELAY_MS);
    const pacedMany = await run(MANY, PACED_DELAY_MS);
    const perFrame = (r: RenderRun, bytes: number): number => bytes / Math.max(1, r.frames);
    const label = (n: number, r: RenderRun): string =>
      `render ${TOKENS.toLocaleString('en')}-token reply, ${n} turn${n > 1 ? 's' : ''} before (${r.frames} frames)`;
    return [
      { name: label(FEW, a), tole: a.cpuMs, baseline: a.cpuMs, unit: 'ms CPU', ratio: 1 },
      {
        name: label(MANY, b),
        tole: b.cpuMs,
        baseline: a.cpuMs,
        unit: 'ms CPU',
        ratio: b.cpuMs / a.cpuMs,
        target: '~1x (< 1.2x)',
      },
      {
        name: `CPU per reply, ${TOKENS.toLocaleString('en')} tokens paced at ${PACED_DELAY_MS} ms (${paced.frames} frames; baseline: the same reply unpaced)`,
        tole: paced.cpuMs,
        baseline: a.cpuMs,
        unit: 'ms CPU',
        ratio: paced.cpuMs / a.cpuMs,
      },
      {
        name: `the paced reply after ${MANY} turns (baseline: after ${FEW})`,
        tole: pacedMany.cpuMs,
        baseline: paced.cpuMs,
        unit: 'ms CPU',
        ratio: pacedMany.cpuMs / paced.cpuMs,
        target: '~1x',
      },
      {
        name: `bytes per frame, unpaced reply, ${FEW} turn before (baseline: the same frames a changed row at a time)`,
        tole: perFrame(a, a.bytes),
        baseline: perFrame(a, a.rowBytes),
        unit: 'B',
        ratio: a.bytes / a.rowBytes,
      },
      {
        name: `bytes per frame, paced reply (${(paced.bytes / 1024).toFixed(0)} KB in all, vs ${(paced.rowBytes / 1024).toFixed(0)} KB)`,
        tole: perFrame(paced, paced.bytes),
        baseline: perFrame(paced, paced.rowBytes),
        unit: 'B',
        ratio: paced.bytes / paced.rowBytes,
      },
      {
        name: `bytes per frame, paced reply, rows that moved scrolled by the terminal (baseline: cell diffs alone, ${(paced.unscrolledBytes / 1024).toFixed(0)} KB)`,
        tole: perFrame(paced, paced.bytes),
        baseline: perFrame(paced, paced.unscrolledBytes),
        unit: 'B',
        ratio: paced.bytes / paced.unscrolledBytes,
        target: '< 1x',
      },
      {
        name: `the same after ${MANY} turns (${(pacedMany.bytes / 1024).toFixed(0)} KB, vs ${(pacedMany.unscrolledBytes / 1024).toFixed(0)} KB)`,
        tole: perFrame(pacedMany, pacedMany.bytes),
        baseline: perFrame(pacedMany, pacedMany.unscrolledBytes),
        unit: 'B',
        ratio: pacedMany.bytes / pacedMany.unscrolledBytes,
        target: '< 1x',
      },
      {
        name: `bytes per frame, paced reply after ${MANY} turns (transcript scrolling)`,
        tole: perFrame(pacedMany, pacedMany.bytes),
        baseline: perFrame(pacedMany, pacedMany.rowBytes),
        unit: 'B',
        ratio: pacedMany.bytes / pacedMany.rowBytes,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Peak resident memory of the built tole once it has drawn a ~100 MB session. */
export async function runMemoryBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-memory-'));
  const env = {
    ...process.env,
    TOLE_HOME: join(dir, 'home'),
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    OPENAI_API_KEY: 'bench',
  };
  try {
    const path = join(dir, 'session.jsonl');
    const bytes = writeReplayFile(path);
    const entries = 100_000;
    const peaks: number[] = [];
    for (let round = 0; round < MEMORY_ROUNDS; round++) {
      // The tree pane's note ("100000/100000") is in the frame once every row is in place.
      const { pty } = await startUntil([TOLE, '--resume', path, '--read-only'], ['seq ', `/${entries}`], env, dir);
      try {
        await new Promise((r) => setTimeout(r, 300));
        peaks.push(peakRssBytes(pty.pid));
      } finally {
        pty.kill('SIGTERM');
      }
    }
    const peak = median(peaks);
    const limit = 2 * bytes + 100 * MB;
    return [
      {
        name: `peak RSS, ${(bytes / MB).toFixed(0)} MB session open (limit ${(limit / MB).toFixed(0)} MB)`,
        tole: peak / MB,
        baseline: bytes / MB,
        unit: 'MB',
        ratio: peak / bytes,
        target: '< 2x file + 100 MB',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function peakRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (!kb) throw new Error(`bench: no VmHWM for pid ${pid}`);
  return Number(kb) * 1024;
}

function medianRun(runs: readonly RenderRun[]): RenderRun {
  return [...runs].sort((a, b) => a.cpuMs - b.cpuMs)[Math.floor(runs.length / 2)]!;
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = [...(await runRenderBench()), ...(await runMemoryBench())];
  process.stdout.write(`${formatRows(rows)}\n`);
  process.exit(0);
}
