/**
 * What each of the build's patches pays (scripts/build.mjs): the built tole beside the same build
 * without that patch (TOLE_BUILD_WITHOUT), in the same rounds, by CPU time to the first frame and
 * resident memory then (bench/cpu-at-first-frame.mjs); and tole's output stage for Ink
 * (ink-output) beside Ink's own by the CPU a 2,000-token reply after 50 turns takes to draw. A
 * patch stays only while it pays more than 5 ms of first frame or a stated MB of memory (or, for
 * ink-output, of drawing): these rows are where that is shown. The patches a CommonJS screen script
 * cannot build without (yoga-sync, ink-no-top-level-await) have no row.
 * Run alone with `node --import tsx bench/run.mts patches`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPTIONAL_PATCHES } from '../scripts/renderer-patches.mjs';
import { bundledApp, MANY, TOKENS } from './render';
import { atFirstFrame, CPU_PRELOAD, interleavedMedians, startEnv, warmCodeCaches } from './startup';
import type { Row } from './storage';

const ROOT = join(import.meta.dirname, '..');
const ROUNDS = 7;
const DRAW_ROUNDS = 5;
/** Patches measured at start-up; ink-output acts on every frame after it and is measured drawing. */
const AT_START = OPTIONAL_PATCHES.filter((name) => name !== 'ink-output');

export async function runPatchesBench(): Promise<Row[]> {
  const builds = join(ROOT, 'bench', 'out', 'builds');
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-patches-'));
  const env = startEnv(dir);
  try {
    const variants = [null, ...AT_START].map((without) => {
      const out = join(builds, without ?? 'all');
      mkdirSync(out, { recursive: true });
      execFileSync(process.execPath, ['scripts/build.mjs'], {
        cwd: ROOT,
        env: { ...process.env, TOLE_DIST: out, TOLE_BUILD_WITHOUT: without ?? '' },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      return join(out, 'tole.js');
    });
    await warmCodeCaches(variants, env, dir);
    const memory = variants.map(() => [] as number[]);
    const cpus = await interleavedMedians(
      ROUNDS,
      variants.map((bin, i) => async () => {
        const { cpuMs, rssMb } = await atFirstFrame(['--import', CPU_PRELOAD, bin], env, dir);
        if (rssMb !== undefined) memory[i]!.push(rssMb);
        return cpuMs;
      }),
    );
    const rss = memory.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
    const rows: Row[] = AT_START.flatMap((name, i): Row[] => [
      {
        name: `patch ${name}: CPU to the first frame (baseline: built without it)`,
        tole: cpus[0]!,
        baseline: cpus[i + 1]!,
        unit: 'ms CPU',
        ratio: cpus[0]! / cpus[i + 1]!,
        target: 'pays > 5 ms or the MB below',
      },
      {
        name: `patch ${name}: resident memory at the first frame (baseline: without it)`,
        tole: rss[0]!,
        baseline: rss[i + 1]!,
        unit: 'MB',
        ratio: rss[0]! / rss[i + 1]!,
      },
    ]);
    const shipped = await bundledApp(true);
    const stock = await bundledApp(false);
    const [withOutput, withoutOutput] = await interleavedMedians(DRAW_ROUNDS, [
      async () => (await shipped.streamedReplyRun(mkdtempSync(join(dir, 'o-')), MANY, TOKENS)).cpuMs,
      async () => (await stock.streamedReplyRun(mkdtempSync(join(dir, 's-')), MANY, TOKENS)).cpuMs,
    ]);
    rows.push({
      name: `patch ink-output: CPU to draw a ${TOKENS.toLocaleString('en')}-token reply after ${MANY} turns (baseline: Ink's output)`,
      tole: withOutput!,
      baseline: withoutOutput!,
      unit: 'ms CPU',
      ratio: withOutput! / withoutOutput!,
      target: 'pays > 5 ms',
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
