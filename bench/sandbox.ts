/**
 * Sandbox benchmark: what the OS sandbox adds to one bash call. The bash tool runs `true` the way
 * a call approved without a key runs it (inside bubblewrap, as a session sets it up: the
 * session's private /tmp, the seccomp filter handed over a pipe, a git repository's `.git` and
 * `tole.config.json` mounted read-only) beside the same call approved with a key (unconfined),
 * alternately so both see the same machine; the median of each.
 * Run alone with `node --import tsx bench/sandbox.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createBashTool } from '../src/core/tools/builtin/bash';
import { detectSandbox } from '../src/core/tools/sandbox';
import type { ToolContext } from '../src/core/tools/tool';
import { formatRows, type Row } from './storage';

const ROUNDS = 41;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function runSandboxBench(): Promise<Row[]> {
  const sandbox = detectSandbox(process.platform, process.env['PATH']);
  if (!sandbox) {
    process.stderr.write('bench: sandbox skipped: no working bwrap or sandbox-exec here\n');
    return [];
  }
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tole-bench-sandbox-')));
  const tempDir = realpathSync(mkdtempSync(join(tmpdir(), 'tole-bench-session-')));
  try {
    execFileSync('git', ['init', '-q', root]);
    writeFileSync(join(root, 'tole.config.json'), '{}\n');
    const bash = createBashTool({
      workspaceRoot: root,
      sandbox: { sandbox, policy: { workspaceRoot: root, tempDir, network: false } },
    });
    const ctx = (keypress: boolean): ToolContext => ({
      workspaceRoot: root,
      signal: new AbortController().signal,
      callId: 'bench',
      keypress,
    });
    const confined: number[] = [];
    const unconfined: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [keypress, times] of [
        [false, confined],
        [true, unconfined],
      ] as const) {
        const started = performance.now();
        const out = await bash.execute({ command: 'true' }, ctx(keypress));
        if (!out.ok) throw new Error(`bench: bash true failed: ${out.content}`);
        times.push(performance.now() - started);
      }
    }
    const tole = median(confined);
    const baseline = median(unconfined);
    return [
      {
        name: `one bash call (\`true\`) in the ${sandbox.kind} sandbox: private /tmp, seccomp filter, .git read-only (baseline: the same call unconfined), median of ${ROUNDS}`,
        tole,
        baseline,
        unit: 'ms',
        ratio: tole / baseline,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(tempDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${formatRows(await runSandboxBench())}\n`);
}
