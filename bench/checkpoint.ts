/**
 * Checkpoint benchmark: a workspace of 10,000 files (100 directories of 100 files) where one file
 * changed since the last checkpoint. tole's checkpoint (list what changed, stage it, write the
 * tree, commit, move the ref) beside a bare `git add -A && git write-tree` of the same tree into
 * a git directory of its own, run alternately so that both see the same machine. Also the disk
 * the checkpoint directory takes, beside the files' own size on disk.
 * Run alone with `node --import tsx bench/checkpoint.ts`.
 */
import { execFile } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Checkpoints } from '../src/core/checkpoints/checkpoint-store';
import { formatRows, type Row } from './storage';

const DIRS = 100;
const FILES_PER_DIR = 100;
const ROUNDS = 31;

const run = promisify(execFile);

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

export async function runCheckpointBench(): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'tole-bench-checkpoint-'));
  try {
    const workspace = join(root, 'workspace');
    for (let d = 0; d < DIRS; d++) {
      mkdirSync(join(workspace, `pkg${d}`, 'src'), { recursive: true });
      for (let f = 0; f < FILES_PER_DIR; f++)
        writeFileSync(
          join(workspace, `pkg${d}`, 'src', `mod${f}.ts`),
          `export const value${f} = ${d * FILES_PER_DIR + f};\n`.repeat(12),
        );
    }
    const checkpoints = Checkpoints.create({
      home: join(root, 'tole-home'),
      workspaceRoot: workspace,
      path: process.env['PATH'] ?? '/usr/bin:/bin',
    });
    const bareDir = join(root, 'bare.git');
    const env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    };
    await run('git', ['init', '-q', '--bare', bareDir], { env });
    const bareEnv = { ...env, GIT_DIR: bareDir, GIT_WORK_TREE: workspace };
    const bare = async (): Promise<void> => {
      await run('git', ['add', '-A'], { env: bareEnv, cwd: workspace, maxBuffer: 64 << 20 });
      await run('git', ['write-tree'], { env: bareEnv, cwd: workspace });
    };
    // The first of each stages all 10,000 files; the rounds measure one changed file.
    const first = await checkpoints.take();
    if (!first.ok) throw new Error(first.reason);
    await bare();
    const tole: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const changed = join(workspace, `pkg${i % DIRS}`, 'src', 'mod0.ts');
      writeFileSync(changed, `export const round = ${i};\n`);
      let t = performance.now();
      const taken = await checkpoints.take();
      tole.push(performance.now() - t);
      if (!taken.ok) throw new Error(taken.reason);
      writeFileSync(changed, `export const round = ${i} + 1;\n`);
      t = performance.now();
      await bare();
      base.push(performance.now() - t);
    }
    const p50 = percentile(tole, 0.5);
    const baseP50 = percentile(base, 0.5);
    const checkpointDisk = diskBytes(checkpoints.directory) / 2 ** 20;
    const workspaceDisk = diskBytes(workspace) / 2 ** 20;
    return [
      {
        name: `checkpoint of a ${DIRS * FILES_PER_DIR}-file workspace, one file changed, p50, vs bare \`git add -A && git write-tree\``,
        tole: p50,
        baseline: baseP50,
        unit: 'ms',
        ratio: p50 / baseP50,
        target: '< 50 ms',
      },
      {
        name: 'the same, p90',
        tole: percentile(tole, 0.9),
        baseline: percentile(base, 0.9),
        unit: 'ms',
        ratio: percentile(tole, 0.9) / percentile(base, 0.9),
      },
      {
        name: `disk taken by the checkpoint directory after ${ROUNDS + 1} checkpoints (baseline: the workspace's own files on disk)`,
        tole: checkpointDisk,
        baseline: workspaceDisk,
        unit: 'MiB',
        ratio: checkpointDisk / workspaceDisk,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${formatRows(await runCheckpointBench())}\n`);
}
