/**
 * Checkpoint benchmark, at 10,000 and 100,000 files (directories of 100 files of ~500 B, built
 * once per run in a temporary folder). Each round changes one file, then times tole's checkpoint
 * (list what changed, stage it, write the tree, commit, move the ref) and, alternating, a bare
 * `git add -A && git write-tree` of the same tree into a git directory of its own, so that both
 * see the same machine (that is the checkpoint of a bash call, or of the first call of a turn).
 * Then a series of known-path checkpoints, as a turn of write_file calls takes them (only the
 * named paths read again), beside the same bare git. Then the disk a one-file checkpoint adds once packed, beside that
 * file's compressed size, and the checkpoint directory after the repack policy packed the first
 * checkpoint, beside the workspace's own files.
 * With watchman installed, the scan rounds time a second store beside the first, on the same
 * workspace, that asks a watchman of the bench's own which paths changed (change-journal.ts; the
 * first store asks none), and check that both checkpoints hold the same tree.
 * Run alone with `node --import tsx bench/checkpoint.ts`; hold both CPU slots while it runs.
 */
import { execFile, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import { WatchmanJournal } from '../src/core/checkpoints/change-journal';
import { Checkpoints } from '../src/core/checkpoints/checkpoint-store';
import { formatRows, type Row } from './storage';

const FILES_PER_DIR = 100;
const SIZES: readonly { files: number; rounds: number }[] = [
  { files: 10_000, rounds: 21 },
  { files: 100_000, rounds: 11 },
];
/** One-file checkpoints whose packed size is averaged. */
const DISK_ROUNDS = 20;

const run = promisify(execFile);
const PATH = process.env['PATH'] ?? '/usr/bin:/bin';
const GIT_ENV = { PATH, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

/** Bytes the files under a directory take on disk (allocated blocks). */
function diskBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    total += stat.blocks * 512;
    if (stat.isDirectory()) total += diskBytes(path);
  }
  return total;
}

/** `files` files in directories of 100: pkgN/subM/src/modK.ts. */
function makeWorkspace(workspace: string, files: number): void {
  for (let dir = 0; dir < files / FILES_PER_DIR; dir++) {
    const path = join(workspace, `pkg${dir % 100}`, `sub${Math.floor(dir / 100)}`, 'src');
    mkdirSync(path, { recursive: true });
    for (let f = 0; f < FILES_PER_DIR; f++)
      writeFileSync(join(path, `mod${f}.ts`), `export const value${f} = ${dir * FILES_PER_DIR + f};\n`.repeat(12));
  }
}

/** A source file of about 4 KB whose every version differs from the last in one line. */
function sourceFile(version: number): string {
  const lines = Array.from({ length: 100 }, (_, i) => `export const setting${i} = ${i * 7};`);
  lines[version % lines.length] = `export const setting${version % lines.length} = 'version ${version}';`;
  return `${lines.join('\n')}\n`;
}

async function scale(root: string, files: number, rounds: number, sockname: string | null): Promise<Row[]> {
  const workspace = join(root, `workspace-${files}`);
  makeWorkspace(workspace, files);
  const store = (home: string, journal: WatchmanJournal | null): Checkpoints =>
    Checkpoints.create({
      home: join(root, home),
      workspaceRoot: workspace,
      path: PATH,
      // In the foreground, so that the rounds below do not time a repack running beside them.
      repack: { looseObjects: 6700, inBackground: false },
      journal,
    });
  const checkpoints = store(`tole-home-${files}`, null);
  const journaled =
    sockname === null
      ? null
      : store(`tole-home-journal-${files}`, new WatchmanJournal(workspace, { env: { PATH }, sockname }));
  const bareEnv = { ...GIT_ENV, GIT_DIR: join(root, `bare-${files}.git`), GIT_WORK_TREE: workspace };
  await run('git', ['init', '-q', '--bare', bareEnv.GIT_DIR], { env: GIT_ENV });
  const bare = async (): Promise<void> => {
    await run('git', ['add', '-A'], { env: bareEnv, cwd: workspace, maxBuffer: 64 << 20 });
    await run('git', ['write-tree'], { env: bareEnv, cwd: workspace });
  };
  // The first of each stages every file; the rounds measure one changed file.
  let t0 = performance.now();
  const first = await checkpoints.take();
  const firstMs = performance.now() - t0;
  if (!first.ok) throw new Error(first.reason);
  await checkpoints.settled();
  const afterFirst = diskBytes(checkpoints.directory);
  if (journaled !== null) {
    // The first asks watchman to watch the workspace and stages every file; the second is the first with a clock to ask from.
    for (let i = 0; i < 2; i++) if (!(await journaled.take()).ok) throw new Error('the journaled store failed');
    await journaled.settled();
  }
  t0 = performance.now();
  await bare();
  const bareFirstMs = performance.now() - t0;
  const tole: number[] = [];
  const withJournal: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const changed = join(workspace, `pkg${i % 100}`, 'sub0', 'src', 'mod0.ts');
    writeFileSync(changed, `export const round = ${i};\n`);
    let t = performance.now();
    const taken = await checkpoints.take();
    tole.push(performance.now() - t);
    if (!taken.ok) throw new Error(taken.reason);
    await checkpoints.settled();
    if (journaled !== null) {
      t = performance.now();
      const fast = await journaled.take();
      withJournal.push(performance.now() - t);
      if (!fast.ok) throw new Error(fast.reason);
      if (journaled.lastUnvouched !== null)
        throw new Error(`a journaled round scanned every file: ${journaled.lastUnvouched}`);
      await journaled.settled();
      if (treeOf(journaled, fast.id) !== treeOf(checkpoints, taken.id))
        throw new Error('the journaled checkpoint differs from the full scan');
    }
    writeFileSync(changed, `export const round = ${i} + 1;\n`);
    t = performance.now();
    await bare();
    base.push(performance.now() - t);
  }
  // A bash call that changed nothing (ls, grep, a test run that writes only ignored files).
  const still: number[] = [];
  const stillJournal: number[] = [];
  for (let i = 0; journaled !== null && i < rounds; i++) {
    let t = performance.now();
    if (!(await checkpoints.take()).ok) throw new Error('a checkpoint failed');
    still.push(performance.now() - t);
    t = performance.now();
    if (!(await journaled.take()).ok) throw new Error('a checkpoint failed');
    stillJournal.push(performance.now() - t);
    if (journaled.lastUnvouched !== null)
      throw new Error(`a journaled round scanned every file: ${journaled.lastUnvouched}`);
  }
  journaled?.close();
  const known = await knownPathRounds(checkpoints, workspace, 2 * rounds - 1);
  const count = files.toLocaleString('en');
  const rows: Row[] = [
    {
      name: `first checkpoint of a ${count}-file workspace (every file written as an object, each made durable before the checkpoint is named), vs the bare git's first \`git add -A && git write-tree\` (nothing synced)`,
      tole: firstMs,
      baseline: bareFirstMs,
      unit: 'ms',
      ratio: firstMs / bareFirstMs,
    },
    {
      name: `checkpoint of a ${count}-file workspace, one file changed (before a write_file or a bash call), p50, vs bare \`git add -A && git write-tree\``,
      tole: percentile(tole, 0.5),
      baseline: percentile(base, 0.5),
      unit: 'ms',
      ratio: percentile(tole, 0.5) / percentile(base, 0.5),
      target: files === 100_000 ? '≤ 1.0x and ≤ 300 ms (bash); ≤ 10 ms (write_file)' : '',
    },
    {
      name: 'the same, p90',
      tole: percentile(tole, 0.9),
      baseline: percentile(base, 0.9),
      unit: 'ms',
      ratio: percentile(tole, 0.9) / percentile(base, 0.9),
    },
    ...(withJournal.length === 0
      ? []
      : [
          {
            name: `the same with watchman's change journal (git looks only at the paths watchman names), p50`,
            tole: percentile(withJournal, 0.5),
            baseline: percentile(base, 0.5),
            unit: 'ms',
            ratio: percentile(withJournal, 0.5) / percentile(base, 0.5),
            target: files === 100_000 ? '≤ 1.0x and ≤ 300 ms (bash)' : '',
          },
          {
            name: 'the same, p90',
            tole: percentile(withJournal, 0.9),
            baseline: percentile(base, 0.9),
            unit: 'ms',
            ratio: percentile(withJournal, 0.9) / percentile(base, 0.9),
          },
        ]),
    ...(still.length === 0
      ? []
      : [
          {
            name: `checkpoint of a ${count}-file workspace after nothing changed, p50: with the journal vs without (baseline)`,
            tole: percentile(stillJournal, 0.5),
            baseline: percentile(still, 0.5),
            unit: 'ms',
            ratio: percentile(stillJournal, 0.5) / percentile(still, 0.5),
          },
        ]),
    {
      name: `known-path checkpoint at ${count} files (before a write_file: only the paths tole's calls named are read), p50, vs the same bare git`,
      tole: percentile(known, 0.5),
      baseline: percentile(base, 0.5),
      unit: 'ms',
      ratio: percentile(known, 0.5) / percentile(base, 0.5),
      target: files === 100_000 ? '≤ 10 ms' : '',
    },
    {
      name: 'the same, p90',
      tole: percentile(known, 0.9),
      baseline: percentile(base, 0.9),
      unit: 'ms',
      ratio: percentile(known, 0.9) / percentile(base, 0.9),
    },
    {
      name: `checkpoint directory after the first checkpoint of ${count} files, packed by the repack policy (baseline: the files on disk)`,
      tole: afterFirst / 2 ** 20,
      baseline: diskBytes(workspace) / 2 ** 20,
      unit: 'MiB',
      ratio: afterFirst / diskBytes(workspace),
    },
  ];
  if (files === 100_000) rows.push(await diskPerCheckpoint(checkpoints, workspace));
  return rows;
}

/**
 * Known-path checkpoints as a turn of write_file calls takes them: each round writes one file the
 * call names (four folders deep), and times the checkpoint that follows. A file changed at the
 * start that no call names must be missing from the last one: else a round scanned.
 */
async function knownPathRounds(checkpoints: Checkpoints, workspace: string, rounds: number): Promise<number[]> {
  const unnamed = join(workspace, 'pkg1', 'sub0', 'src', 'mod1.ts');
  writeFileSync(unnamed, "changed behind tole's back\n");
  const times: number[] = [];
  let last = '';
  for (let i = 0; i < rounds; i++) {
    const path = `pkg${(i * 7) % 100}/sub0/src/mod${i % 100}.ts`;
    checkpoints.noteChanges([path]);
    writeFileSync(join(workspace, path), `export const written = ${i};\n`);
    const t = performance.now();
    const taken = await checkpoints.take('known-paths');
    times.push(performance.now() - t);
    if (!taken.ok) throw new Error(taken.reason);
    last = taken.id;
  }
  const held = await run('git', ['show', `${last}:pkg1/sub0/src/mod1.ts`], {
    env: { ...GIT_ENV, GIT_DIR: checkpoints.directory },
  });
  if (held.stdout.includes('behind')) throw new Error('a known-path round scanned the workspace');
  // The next checkpoints of this bench scan, and find the file as any scan would.
  checkpoints.rescan();
  return times;
}

/** Packed bytes one checkpoint of a one-line change to a 4 KB file adds, beside the file compressed. */
async function diskPerCheckpoint(checkpoints: Checkpoints, workspace: string): Promise<Row> {
  const gitEnv = { ...GIT_ENV, GIT_DIR: checkpoints.directory };
  const packed = async (): Promise<number> => {
    await run('git', ['repack', '-a', '-d', '-q'], { env: gitEnv });
    const pack = join(checkpoints.directory, 'objects', 'pack');
    return readdirSync(pack).reduce((sum, name) => sum + lstatSync(join(pack, name)).size, 0);
  };
  const file = join(workspace, 'pkg7', 'sub3', 'src', 'settings.ts');
  writeFileSync(file, sourceFile(0));
  await checkpoints.take();
  await checkpoints.settled();
  const before = await packed();
  const compressed: number[] = [];
  for (let i = 1; i <= DISK_ROUNDS; i++) {
    writeFileSync(file, sourceFile(i));
    compressed.push(deflateSync(sourceFile(i)).length);
    const taken = await checkpoints.take();
    if (!taken.ok) throw new Error(taken.reason);
    await checkpoints.settled();
  }
  const perCheckpoint = ((await packed()) - before) / DISK_ROUNDS;
  const fileCompressed = compressed.reduce((a, b) => a + b, 0) / compressed.length;
  return {
    name: `disk one checkpoint adds once packed, a one-line change to a ${sourceFile(1).length}-byte file (baseline: that file compressed)`,
    tole: perCheckpoint,
    baseline: fileCompressed,
    unit: 'B',
    ratio: perCheckpoint / fileCompressed,
    target: '≤ 2x',
  };
}

function treeOf(checkpoints: Checkpoints, id: string): string {
  const run = spawnSync('git', ['rev-parse', `${id}^{tree}`], {
    encoding: 'utf8',
    env: { ...GIT_ENV, GIT_DIR: checkpoints.directory },
  });
  return run.stdout.trim();
}

/** A watchman of the bench's own (its socket and state in `dir`), or null when none is installed. */
function benchWatchman(dir: string): { sockname: string; stop: () => void } | null {
  mkdirSync(dir);
  const files = ['sock', 'state', 'log', 'pid'].map((name) => join(dir, name));
  const args = [
    `--sockname=${files[0]}`,
    `--statefile=${files[1]}`,
    `--logfile=${files[2]}`,
    `--pidfile=${files[3]}`,
    '--no-save-state',
  ];
  if (spawnSync('watchman', [...args, 'get-sockname'], { stdio: 'ignore' }).status !== 0) {
    process.stderr.write('watchman is not installed or did not start: no journal rows\n');
    return null;
  }
  return { sockname: files[0]!, stop: () => spawnSync('watchman', [...args, '--no-spawn', 'shutdown-server']) };
}

export async function runCheckpointBench(): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'tole-bench-checkpoint-'));
  const watchman = benchWatchman(join(root, 'watchman'));
  try {
    const rows: Row[] = [];
    for (const { files, rounds } of SIZES) rows.push(...(await scale(root, files, rounds, watchman?.sockname ?? null)));
    return rows;
  } finally {
    watchman?.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${formatRows(await runCheckpointBench())}\n`);
}
