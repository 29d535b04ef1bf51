/**
 * What vetting one bash call costs: `repositoryGitConfig` (the workspace walk for git directories
 * and the reads of every config found), as the bash tool runs it before the approval box and again
 * before the command. Measured in a small repository and in a copy of tole's own checkout
 * (node_modules and .git included): the first call in a workspace (cold), and calls after it with
 * nothing changed (warm, the median of 15). A workspace is left still for half a second before it
 * is measured: tole keeps no listing or read of a file changed within 100 ms of reading it
 * (git-folder-listings.ts, git-config-kept.ts). Wall time: run it with the machine otherwise idle.
 * Run alone with `node --import tsx bench/vet-call.ts [checkout]` (default: the current folder).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childEnv } from '../src/core/child-env';
import { withGitGuard } from '../src/core/git-guard-env';
import { workspaceGitDirs } from '../src/core/git-nested-dirs';
import { repositoryGitConfig } from '../src/core/git-repo-drivers';

const WARM_ROUNDS = 15;

function smallRepository(parent: string): string {
  const root = path.join(parent, 'small');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(root, 'README.md'), '# small\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
  return root;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(run: () => unknown): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function measure(name: string, root: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  const env = withGitGuard({ ...childEnv(process.env), PAGER: 'cat', GIT_PAGER: 'cat' });
  const vet = () => repositoryGitConfig(root, env, 'ls -la', []);
  const walk = () => workspaceGitDirs(root);
  const cold = await timed(vet);
  const warm: number[] = [];
  const walks: number[] = [];
  for (let round = 0; round < WARM_ROUNDS; round++) {
    warm.push(await timed(vet));
    walks.push(await timed(walk));
  }
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(`${name}: vet cold ${fmt(cold)}, vet warm ${fmt(median(warm))}, walk alone warm ${fmt(median(walks))}`);
}

async function main(): Promise<void> {
  const checkout = realpathSync(process.argv[2] ?? process.cwd());
  const parent = realpathSync(mkdtempSync(path.join(tmpdir(), 'tole-vet-bench-')));
  try {
    // Module loading and the first git spawn are paid here, not by the first measure.
    const warmUp = path.join(parent, 'warm-up');
    mkdirSync(warmUp);
    await repositoryGitConfig(warmUp, withGitGuard(childEnv(process.env)), 'ls', []);
    await measure('small repository', smallRepository(parent));
    const copy = path.join(parent, 'checkout');
    cpSync(checkout, copy, { recursive: true, verbatimSymlinks: true });
    await measure(`copy of ${checkout}`, copy);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

await main();
