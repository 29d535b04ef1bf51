/**
 * `--from`: sessions the team's server holds. A session that is not in the local sessions
 * directory is pulled into it first (a checked local file), then opened or exported as usual.
 * While another machine's tole holds the session (it had it open at its last sync), it is opened
 * read-only here.
 */
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { seededRandom } from '../core/clock';
import { listingCell, listingWhen } from './listing-cell';
import { StorageError } from '../core/storage/errors';
import { SessionStore } from '../core/storage/session-store';
import { redactUrl } from '../core/sync/database';
import { findTeamSession, listTeamSessions, pullSession, type TeamSession } from '../core/sync/pull';
import { formatUsd } from '../core/usage/cost-text';
import type { CliArgs } from './args';
import type { Config } from './config';
import { resolveSessionRef } from './session-files';
import { syncUrlFor, withTeamDb } from './sync-command';
import { clock, systemRandom } from './wiring';

interface FromServer {
  /** The local file to open: pulled now, or already here. */
  readonly path: string;
  /** Another machine holds it: open it read-only. */
  readonly heldElsewhere: boolean;
  readonly notices: readonly string[];
}

function holderText(session: TeamSession): string {
  const h = session.holder!;
  return `pid ${h.pid ?? '?'} on ${h.host}`;
}

/** The local file for session `ref` from the server at `--from` (or the config's sync URL). */
export async function sessionFromServer(
  ref: string,
  from: string,
  env: NodeJS.ProcessEnv,
  config: Config,
  dir: string,
  cwd: string,
): Promise<FromServer> {
  const url = syncUrlFor(from, env, config, '--from');
  return withTeamDb(url, async (db) => {
    const session = await findTeamSession(db, ref);
    const heldElsewhere = session.holder !== null && session.holder.host !== hostname();
    const notices: string[] = [];
    if (heldElsewhere)
      notices.push(
        `${holderText(session)} has this session open: showing the server's copy read-only, nothing will be written; it can be continued here once that tole is closed and has synced`,
      );
    const local = resolveSessionRef(session.id, dir, cwd);
    if (local) {
      const store = SessionStore.open(local, { clock, random: seededRandom(1), readOnly: true });
      const lastSeq = store.lastSeq;
      store.close();
      if (lastSeq < session.shippedSeq) {
        throw new StorageError(
          'exists',
          `${local} holds this session up to seq ${lastSeq}, and ${redactUrl(url)} has it up to ${session.shippedSeq}: move the local file away to pull the server's copy`,
          { path: local },
        );
      }
      return { path: local, heldElsewhere, notices };
    }
    mkdirSync(dir, { recursive: true });
    const path = await pullSession(db, session.id, dir, { clock, random: systemRandom() });
    notices.push(
      `pulled session ${session.id} (${session.person} on ${session.host}) from ${redactUrl(url)} into ${path}`,
    );
    return { path, heldElsewhere, notices };
  });
}

/** `tole --resume ID --from [URL]` and `tole -p ... --resume ID --from`: the args that open the pulled file. */
export async function resumeFromServer(
  args: CliArgs,
  env: NodeJS.ProcessEnv,
  config: Config,
  dir: string,
  cwd: string,
): Promise<{ args: CliArgs; notices: readonly string[] }> {
  if (args.from === undefined) return { args, notices: [] };
  if (!args.resume)
    throw new StorageError(
      'not-found',
      '--from opens a session the server holds: tole --resume ID --from postgres://... (list them with tole sessions --from URL)',
    );
  const found = await sessionFromServer(args.resume, args.from, env, config, dir, cwd);
  if (found.heldElsewhere && args.command === 'headless') {
    throw new StorageError(
      'locked',
      `${found.notices[0]!.split(':')[0]}: a headless turn would write to it; wait until that tole is closed and has synced`,
      { path: found.path },
    );
  }
  return {
    args: { ...args, resume: found.path, readOnly: args.readOnly || found.heldElsewhere },
    notices: found.notices,
  };
}

/** `tole sessions --from [URL]`: every session on the server, newest first. */
export async function listFromServer(
  from: string,
  env: NodeJS.ProcessEnv,
  config: Config,
  stdout: NodeJS.WritableStream,
): Promise<number> {
  const url = syncUrlFor(from, env, config, '--from');
  const sessions = await withTeamDb(url, listTeamSessions);
  if (sessions.length === 0) {
    stdout.write(`no sessions on ${redactUrl(url)} (tole sync --to URL ships this machine's)\n`);
    return 0;
  }
  // The name column is there when a session has a name (/name in the full screen).
  const named = sessions.some((s) => s.name !== null);
  const header = [
    'id',
    'when (UTC)',
    'person',
    'host',
    'entries',
    'cost',
    'open on',
    ...(named ? ['name'] : []),
    'first prompt',
  ];
  const rows = sessions.map((s) => [
    s.id,
    listingWhen(s.createdAt),
    listingCell(s.person),
    listingCell(s.host),
    String(s.entries),
    formatUsd(s.costUsdMicros),
    s.holder ? listingCell(s.holder.host) : '-',
    ...(named ? [listingCell(s.name ?? '', 30)] : []),
    listingCell(s.firstPrompt || '(no prompt yet)', 50),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  stdout.write(`${[format(header), ...rows.map(format)].join('\n')}\n`);
  return 0;
}
