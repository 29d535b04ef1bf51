import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { seededRandom } from '../core/clock';
import { exportAllBranchesMarkdown, exportJson, exportLeaf, exportMarkdown } from '../core/session/export';
import { StorageError } from '../core/storage/errors';
import { SessionStore } from '../core/storage/session-store';
import { UsageError, type CliArgs } from './args';
import { loadConfig } from './config';
import { resolveSessionRef, sessionsDirectory } from './session-files';
import { sessionFromServer } from './team-read';
import { clock } from './wiring';

/** `tole export ID|PATH --format md|json [--branch LANE | --entry ID | --all] [-o FILE]`. */
export async function runExport(
  args: CliArgs,
  io: { cwd: string; env: NodeJS.ProcessEnv; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const ref = args.positional[0];
  if (!ref) throw new UsageError('tole export needs a session: tole export ID|PATH --format md|json');
  const format = args.format ?? 'md';
  if (format !== 'md' && format !== 'json') throw new UsageError(`--format must be md or json, not "${format}"`);
  if (args.branch !== undefined && args.entry !== undefined)
    throw new UsageError('use either --branch or --entry, not both');
  if (args.all && (args.branch !== undefined || args.entry !== undefined))
    throw new UsageError('--all exports every branch; leave out --branch and --entry, or drop --all to export one');
  if (format === 'json' && (args.branch !== undefined || args.entry !== undefined))
    throw new UsageError('--format json exports the whole tree; --branch and --entry go with --format md');
  const { config } = loadConfig(io.cwd, io.env, { explicit: args.config, trust: args.trust });
  const dir = sessionsDirectory(io.env, config.sessionsDir);
  let path = args.from === undefined ? resolveSessionRef(ref, dir, io.cwd) : null;
  if (args.from !== undefined) {
    const found = await sessionFromServer(ref, args.from, io.env, config, dir, io.cwd);
    for (const notice of found.notices) io.stderr.write(`tole: ${notice}\n`);
    path = found.path;
  }
  if (!path) throw new StorageError('not-found', `no session "${ref}"; list them with tole sessions`);
  const store = SessionStore.open(path, { clock, random: seededRandom(1), readOnly: true });
  try {
    let leaf: string | null = null;
    if (format === 'md' && !args.all) {
      try {
        leaf = exportLeaf(store, {
          ...(args.branch !== undefined ? { branch: args.branch } : {}),
          ...(args.entry !== undefined ? { entry: args.entry } : {}),
        });
      } catch (error) {
        // A lane or entry that is not in the session, like a session that is not there: exit 1.
        const how = args.entry !== undefined ? `: tole export ${ref} --format json lists every entry's id` : '';
        throw new StorageError('not-found', `${(error as Error).message}${how}`, { path });
      }
    }
    const text =
      format === 'json'
        ? exportJson(store, clock)
        : args.all
          ? exportAllBranchesMarkdown(store, clock)
          : exportMarkdown(store, leaf, clock);
    if (args.out) {
      writeFileSync(resolve(io.cwd, args.out), text);
      io.stderr.write(`tole: wrote ${args.out}\n`);
    } else io.stdout.write(text);
    return 0;
  } finally {
    store.close();
  }
}
