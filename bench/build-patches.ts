/**
 * What each of the build's patches pays (scripts/build.mjs): the built tole beside the same build
 * without that patch (TOLE_BUILD_WITHOUT), in the same rounds (the order of the builds turned by one
 * each round), by the first frame of a new session in a pseudo-terminal (wall time; CPU time and
 * resident memory then, bench/cpu-at-first-frame.mjs), and by `tole --version` and one `tole -p`
 * turn against a local chat server (wall time to exit; CPU time and peak resident memory,
 * bench/cpu-at-exit.mjs); and tole's output stage for Ink (ink-output) beside Ink's own by the CPU
 * a 2,000-token reply after 50 turns takes to draw, and ink-resize's direct frame write beside Ink's
 * throttle by the CPU of the same reply paced at 5 ms a token (the frames it writes). A patch stays only while it pays more than 5 ms
 * of first frame or a stated MB of memory (or, for ink-output, of drawing): these rows are where
 * that is shown. The patches a CommonJS screen script cannot build without (yoga-sync,
 * ink-no-top-level-await) have no row.
 * Run alone with `node --import tsx bench/run.mts patches`; TOLE_PATCH_ROUNDS sets the rounds (7 by
 * default), and every figure's median, quartiles and range are written to bench/out/patches.md.
 */
import { execFileSync, spawn as spawnChild } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPTIONAL_PATCHES } from '../scripts/renderer-patches.mjs';
import { startChatServer } from '../test/support/chat-server';
import { bundledApp, MANY, PACED_DELAY_MS, TOKENS } from './render';
import { atFirstFrame, CPU_PRELOAD, interleavedMedians, startEnv, startUntil, warmCodeCaches } from './startup';
import type { Row } from './storage';

const ROOT = join(import.meta.dirname, '..');
const ROUNDS = Number(process.env['TOLE_PATCH_ROUNDS'] ?? 7);
const DRAW_ROUNDS = 5;
const EXIT_PRELOAD = join(import.meta.dirname, 'cpu-at-exit.mjs');
/** Patches measured at start-up; ink-output acts on every frame after it and is measured drawing too. */
const AT_START = OPTIONAL_PATCHES;

/** What one start of one build measured. */
interface Start {
  frameMs: number;
  frameCpuMs: number;
  frameRssMb: number;
  versionMs: number;
  versionCpuMs: number;
  versionRssMb: number;
  turnMs: number;
  turnCpuMs: number;
  turnRssMb: number;
}
type Measure = keyof Start;
const MEASURES: readonly [Measure, string, string][] = [
  ['frameMs', 'first frame, new session, wall', 'ms'],
  ['frameCpuMs', 'CPU to the first frame', 'ms CPU'],
  ['frameRssMb', 'resident memory at the first frame', 'MB'],
  ['versionMs', '`tole --version`, start to exit', 'ms'],
  ['versionCpuMs', '`tole --version`, CPU', 'ms CPU'],
  ['versionRssMb', '`tole --version`, peak resident memory', 'MB'],
  ['turnMs', 'one `tole -p` turn, start to exit', 'ms'],
  ['turnCpuMs', 'one `tole -p` turn, CPU', 'ms CPU'],
  ['turnRssMb', 'one `tole -p` turn, peak resident memory', 'MB'],
];

/** Wall time to exit, CPU and peak memory of `node --import cpu-at-exit.mjs args`. */
function toExit(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ ms: number; cpuMs: number; rssMb: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawnChild(process.execPath, ['--import', EXIT_PRELOAD, ...args], {
      cwd,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const found = /cpu-at-exit ([\d.]+) ms maxrss ([\d.]+) MB/.exec(stderr);
      if (code !== 0 || !found) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-400)}`));
      else resolve({ ms, cpuMs: Number(found[1]), rssMb: Number(found[2]) });
    });
  });
}

/** Wall time to the first whole frame of a new session; the process is ended and waited for. */
async function frameMs(bin: string, env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const { pty, ms } = await startUntil([bin], ['seq '], env, cwd);
  await new Promise<void>((resolve) => {
    pty.onExit(() => resolve());
    pty.kill();
  });
  return ms;
}

const quantile = (sorted: readonly number[], q: number): number => {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
};
const sortedOf = (list: readonly number[]): number[] => [...list].sort((a, b) => a - b);
const fmt = (n: number): string => n.toFixed(1);
/** "median (p25–p75, min–max)". */
const spread = (list: readonly number[]): string => {
  const s = sortedOf(list);
  return `${fmt(quantile(s, 0.5))} (${fmt(quantile(s, 0.25))}–${fmt(quantile(s, 0.75))}, ${fmt(s[0]!)}–${fmt(s.at(-1)!)})`;
};

/** Medians of `measures`, run in turn `rounds` times, the order turned by one each round. */
async function alternatingMedians(rounds: number, measures: readonly (() => Promise<number>)[]): Promise<number[]> {
  const values = measures.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < measures.length; k++) {
      const i = (round + k) % measures.length;
      values[i]!.push(await measures[i]!());
    }
  return values.map((list) => quantile(sortedOf(list), 0.5));
}

export async function runPatchesBench(): Promise<Row[]> {
  const builds = join(ROOT, 'bench', 'out', 'builds');
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-patches-'));
  const env = startEnv(dir);
  // A project folder beside tole's home (tole warns of a workspace that holds its own folder).
  const work = join(dir, 'work');
  mkdirSync(work);
  const server = await startChatServer();
  try {
    const names = ['all', ...AT_START.map((name) => `without ${name}`)];
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
    // Each build its own cache folder: tole keeps the caches of only four builds of a script, and
    // more builds in one folder would start some of them without one.
    const envs = variants.map((_, i) => ({ ...env, XDG_CACHE_HOME: join(dir, `cache-${i}`) }));
    const turn = (bin: string): string[] => [bin, '-p', 'say hi', '--base-url', server.url, '--model', 'm'];
    for (const [i, bin] of variants.entries()) {
      await warmCodeCaches([bin], envs[i]!, work);
      // The first turn compiles `tole -p`'s script and writes its code cache, as a user's first does.
      await toExit(turn(bin), envs[i]!, work);
    }
    const starts: Start[][] = variants.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < variants.length; k++) {
        const i = (round + k) % variants.length;
        const bin = variants[i]!;
        const own = envs[i]!;
        const frame = await frameMs(bin, own, work);
        const at = await atFirstFrame(['--import', CPU_PRELOAD, bin], own, work);
        const version = await toExit([bin, '--version'], own, work);
        const oneTurn = await toExit(turn(bin), own, work);
        starts[i]!.push({
          frameMs: frame,
          frameCpuMs: at.cpuMs,
          frameRssMb: at.rssMb ?? Number.NaN,
          versionMs: version.ms,
          versionCpuMs: version.cpuMs,
          versionRssMb: version.rssMb,
          turnMs: oneTurn.ms,
          turnCpuMs: oneTurn.cpuMs,
          turnRssMb: oneTurn.rssMb,
        });
      }
      process.stderr.write(`patches: round ${round + 1} of ${ROUNDS}\n`);
    }
    const values = (i: number, measure: Measure): number[] => starts[i]!.map((start) => start[measure]);
    const median = (list: readonly number[]): number => quantile(sortedOf(list), 0.5);
    // Per build: each figure's median (quartiles, range); per patch: what leaving it out cost, round by round.
    const lines = [
      `# Build patches, ${ROUNDS} rounds, ${new Date().toISOString()}`,
      '',
      `| build | ${MEASURES.map(([, label, unit]) => `${label} (${unit})`).join(' | ')} |`,
      `| --- | ${MEASURES.map(() => '---:').join(' | ')} |`,
      ...names.map((name, i) => `| ${name} | ${MEASURES.map(([m]) => spread(values(i, m))).join(' | ')} |`),
      '',
      'Without the patch minus with it, paired by round (positive: the patch saves that much): median (p25–p75, min–max).',
      '',
      `| patch | ${MEASURES.map(([, label, unit]) => `${label} (${unit})`).join(' | ')} |`,
      `| --- | ${MEASURES.map(() => '---:').join(' | ')} |`,
      ...AT_START.map(
        (name, j) =>
          `| ${name} | ${MEASURES.map(([m]) => {
            const all = values(0, m);
            return spread(values(j + 1, m).map((v, r) => v - all[r]!));
          }).join(' | ')} |`,
      ),
      '',
    ];
    mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'out', 'patches.md'), lines.join('\n'));
    process.stderr.write(`${lines.join('\n')}\n`);
    const rows: Row[] = AT_START.flatMap((name, j): Row[] =>
      (['frameMs', 'frameCpuMs', 'frameRssMb'] as const).map((m) => {
        const [, label, unit] = MEASURES.find(([key]) => key === m)!;
        const tole = median(values(0, m));
        const baseline = median(values(j + 1, m));
        return {
          name: `patch ${name}: ${label} (baseline: built without it)`,
          tole,
          baseline,
          unit,
          ratio: tole / baseline,
          ...(m === 'frameCpuMs' ? { target: 'pays > 5 ms or a stated MB' } : {}),
        };
      }),
    );
    const shipped = await bundledApp(true);
    const stock = await bundledApp(false);
    const [withOutput, withoutOutput] = await interleavedMedians(DRAW_ROUNDS, [
      async () => (await shipped.streamedReplyRun(mkdtempSync(join(dir, 'o-')), MANY, TOKENS)).cpuMs,
      async () => (await stock.streamedReplyRun(mkdtempSync(join(dir, 's-')), MANY, TOKENS)).cpuMs,
    ]);
    // ink-resize's direct write of each frame (Ink's throttle, with no wait, started a timer a frame).
    // Paced (5 ms a token, ~200 frames): a reply streamed without delay draws two frames, so the
    // write acted twice and the row measured noise. Each bundle draws one paced reply first and the
    // order turns each round: this bundle is new here, while `shipped` has just drawn the rounds
    // above, and a new bundle's first replies run before V8 has optimized its code.
    const directLog = await bundledApp(true, true);
    const pacedRun = async (app: typeof shipped, tag: string): Promise<number> =>
      (await app.streamedReplyRun(mkdtempSync(join(dir, tag)), MANY, TOKENS, PACED_DELAY_MS)).cpuMs;
    await pacedRun(directLog, 'dw-');
    await pacedRun(shipped, 'tw-');
    const [withDirectLog, withThrottle] = await alternatingMedians(DRAW_ROUNDS, [
      () => pacedRun(directLog, 'd-'),
      () => pacedRun(shipped, 't-'),
    ]);
    rows.push({
      name: `patch ink-resize (throttledLog): CPU to draw a ${TOKENS.toLocaleString('en')}-token reply paced ${PACED_DELAY_MS} ms a token after ${MANY} turns (baseline: Ink's throttle)`,
      tole: withDirectLog!,
      baseline: withThrottle!,
      unit: 'ms CPU',
      ratio: withDirectLog! / withThrottle!,
      target: 'pays > 5 ms',
    });
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
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
