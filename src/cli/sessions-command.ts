import { summariseSession } from '../core/session/session-summary';
import { withChildrenUnderParents, type ListedSession } from '../core/session/session-family';
import { formatCost } from '../core/usage/cost-text';
import type { CliArgs } from './args';
import { loadConfig } from './config';
import { listingCell, listingWhen } from './listing-cell';
import { listSessionFiles, sessionsDirectory, unreadableSessionFiles } from './session-files';
import { listFromServer } from './team-read';
import { clock } from './wiring';

/** The sessions of `cwd` (or all), newest first, each sub-agent right under its parent. */
export function sessionsForListing(dir: string, cwd: string, all: boolean): ListedSession[] {
  return withChildrenUnderParents(
    listSessionFiles(dir)
      .filter((info) => all || info.header.cwd === cwd)
      .map((info) => summariseSession(info, clock)),
  );
}

/** A sub-agent's id under its parent's, marked. */
function idCell(s: ListedSession): string {
  return s.depth === 0 ? s.id : `${'  '.repeat(s.depth - 1)}└ ${s.id}`;
}

/** Its own cost and its sub-agents', starred when they are in it; `+?` when some call had no price. */
function costCell(s: ListedSession): string {
  return s.childrenCostUsdMicros === 0 && !s.childrenUnpriced
    ? formatCost(s.costUsdMicros, s.unpriced, s.estimated)
    : `${formatCost(s.costUsdMicros + s.childrenCostUsdMicros, s.unpriced || s.childrenUnpriced, s.estimated || s.childrenEstimated)}*`;
}

function promptCell(s: ListedSession): string {
  const prompt = s.firstPrompt || '(no prompt yet)';
  return s.task ? `sub-agent${s.task.agent ? ` ${s.task.agent}` : ''}: ${prompt}` : prompt;
}

/** `tole sessions [--all]`: newest first. */
export function runSessions(
  args: CliArgs,
  io: { cwd: string; env: NodeJS.ProcessEnv; stdout: NodeJS.WritableStream },
): number | Promise<number> {
  const { config } = loadConfig(io.cwd, io.env, { explicit: args.config, trust: args.trust });
  if (args.from !== undefined) return listFromServer(args.from, io.env, config, io.stdout);
  const dir = sessionsDirectory(io.env, config.sessionsDir);
  const sessions = sessionsForListing(dir, io.cwd, args.all);
  const unreadable = unreadableSessionFiles(dir);
  const footnote =
    unreadable.length === 0
      ? ''
      : `${unreadable.length} file${unreadable.length === 1 ? '' : 's'} in ${dir} could not be read as a session (tole check PATH says why):\n${unreadable.map((p) => `  ${p}`).join('\n')}\n`;
  if (sessions.length === 0) {
    io.stdout.write(
      args.all ? `no sessions in ${dir}\n` : `no sessions for ${io.cwd} (tole sessions --all lists every directory)\n`,
    );
    io.stdout.write(footnote);
    return 0;
  }
  const named = sessions.some((s) => s.name !== null);
  const rows = sessions.map((s) => [
    idCell(s),
    listingWhen(s.createdAt),
    String(s.entries),
    String(s.branches),
    costCell(s),
    // The name column is there when a session has a name (/name in the full screen).
    ...(named ? [s.problem ? '-' : listingCell(s.name ?? '', 30)] : []),
    s.problem ? `! ${listingCell(s.problem, 60)}` : listingCell(promptCell(s), 50),
    ...(args.all ? [listingCell(s.cwd)] : []),
  ]);
  const header = [
    'id',
    'when (UTC)',
    'entries',
    'branches',
    'cost',
    ...(named ? ['name'] : []),
    'first prompt',
    ...(args.all ? ['directory'] : []),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: string[]): string =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const starred = sessions.some((s) => s.childrenCostUsdMicros > 0)
    ? "* the session's own cost and its sub-agents' (listed under it, marked └)\n"
    : '';
  io.stdout.write(`${[format(header), ...rows.map(format)].join('\n')}\n${starred}${footnote}`);
  return 0;
}
