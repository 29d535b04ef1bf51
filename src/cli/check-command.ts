import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { seededRandom } from '../core/clock';
import { checkpointOf, checkpointedEntries } from '../core/session/restore-files';
import { SessionStore } from '../core/storage/session-store';
import { UsageError, type CliArgs } from './args';
import { loadConfig } from './config';
import { indexKeyIn } from './index-key';
import { toleHome } from './tole-home';
import { checkpointsFor, clock } from './wiring';

interface CheckIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** `tole check PATH`: verify a session file without changing it, and the checkpoints its entries name. */
export async function runCheck(args: CliArgs, io: CheckIo): Promise<number> {
  const target = args.positional[0];
  if (!target) throw new UsageError('tole check needs a session file: tole check PATH');
  const { checkSessionFile, formatCheckReport } = await import('../core/storage/check');
  const path = resolve(io.cwd, target);
  const report = checkSessionFile(path, undefined, indexKeyIn(toleHome(io.env)));
  io.stdout.write(`${formatCheckReport(report)}\n`);
  if (report.ok) io.stdout.write(`${(await checkpointLines(path, io)).join('\n')}\n`);
  return report.ok ? 0 : 1;
}

/**
 * Whether every checkpoint an entry names still exists in tole's checkpoint directory for the
 * session's workspace. A missing one is reported, not fatal: the conversation is sound without it.
 */
async function checkpointLines(path: string, io: CheckIo): Promise<string[]> {
  const store = SessionStore.open(path, { clock, random: seededRandom(1), readOnly: true });
  try {
    const named = checkpointedEntries(store);
    if (named.length === 0) return ['checkpoints: none named'];
    const workspace = realOrSelf(store.header.cwd);
    const { config } = loadConfig(io.cwd, io.env, undefined);
    const checkpoints = checkpointsFor(io.env, config, workspace);
    const missing: string[] = [];
    for (const entry of named) {
      const id = checkpointOf(entry)!;
      if (!(await checkpoints.has(id)))
        missing.push(`  missing: checkpoint ${id.slice(0, 12)} named by entry ${entry.id} (${entry.type})`);
    }
    if (missing.length === 0) return [`checkpoints: ${named.length} named, all present in ${checkpoints.directory}`];
    return [
      `checkpoints: ${named.length} named, ${missing.length} MISSING from ${checkpoints.directory} (files cannot be restored to those points; the session itself is sound)`,
      ...missing,
    ];
  } finally {
    store.close();
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
