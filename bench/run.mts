/**
 * `npm run bench`: every benchmark, each beside a baseline measured in the same run, as one
 * table. The date, machine and table are also written to bench/out/latest.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { runPatchesBench } from './build-patches';
import { runCheckpointBench } from './checkpoint';
import { runLargeSessionBench } from './large-session';
import { runPlanReinjectionBench } from './plan-reinjection';
import { runReadFanOutBench } from './read-fan-out';
import { runMemoryBench, runRenderBench } from './render';
import { runSandboxBench } from './sandbox';
import { runSqliteBench } from './sqlite';
import { runStartBench, runStartupBench } from './startup';
import { runSnapshotBench } from './startup-snapshot';
import { formatRows, runStorageBench, type Row } from './storage';
import { runPromptCacheBench } from './prompt-cache';
import { runProviderTransportBench } from './provider-transport';
import { runStreamBench } from './stream';
import { runSyncBench } from './sync';
import { runTreeFindBench } from './tree-find';
import { runPathCompletionBench } from './path-completion';

const suites: [string, () => Promise<Row[]>][] = [
  ['storage', runStorageBench],
  ['sqlite', runSqliteBench],
  ['stream', async () => [...(await runStreamBench()), ...(await runProviderTransportBench())]],
  ['reads', runReadFanOutBench],
  ['plans', runPlanReinjectionBench],
  ['cache', runPromptCacheBench],
  ['start', runStartBench],
  ['snapshot', runSnapshotBench],
  ['patches', runPatchesBench],
  ['screen', runStartupBench],
  ['render', runRenderBench],
  ['memory', runMemoryBench],
  ['find', runTreeFindBench],
  ['paths', runPathCompletionBench],
  ['large', runLargeSessionBench],
  ['sync', runSyncBench],
  ['checkpoint', runCheckpointBench],
  ['sandbox', runSandboxBench],
];

const only = process.argv.slice(2);
const rows: Row[] = [];
for (const [name, run] of suites) {
  if (only.length > 0 && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}...\n`);
  try {
    rows.push(...(await run()));
  } catch (error) {
    process.stderr.write(`bench: ${name} failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  }
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const table = formatRows(rows);
process.stdout.write(`${table}\n`);
const outDir = join(import.meta.dirname, 'out');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'latest.md'), `${new Date().toISOString()} · ${machine}\n\n\`\`\`\n${table}\n\`\`\`\n`);
process.exit(process.exitCode ?? 0);
