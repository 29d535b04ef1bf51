import type { Random } from '../core/clock';
import type { CompactionResult } from '../core/session/compaction';
import { forkSession } from '../core/session/fork';
import type { SessionStore } from '../core/storage/session-store';
import { formatTokens } from '../tui/text/format';
import type { HostCommand } from '../tui/commands/slash-commands';
import type { Agent } from '../core/session/agent';
import { formatCost } from '../core/usage/cost-text';
import type { CommandReport } from '../tui/commands/slash-commands';
import { sessionsForListing } from './sessions-command';
import { clock } from './wiring';

interface HostCommandParts {
  readonly agent: Pick<Agent, 'compact'>;
  readonly store: SessionStore;
  /** Where `/fork` puts the new session. */
  readonly sessionsDir: string;
  readonly random: Random;
  /** False while no provider is set up: `/compact` needs the model. */
  readonly providerUsable?: () => boolean;
}

/** What a compaction did, in a line. */
function describeCompaction(result: CompactionResult): string {
  switch (result.kind) {
    case 'summarized':
    case 'collapsed': {
      const what =
        result.kind === 'summarized'
          ? `${result.replacedEntries} entries into a summary`
          : `${result.collapsedResults} old tool results to a line each`;
      const before = formatTokens(result.estimatedTokensBefore);
      const after = formatTokens(result.estimatedTokensAfter);
      const gain =
        result.estimatedTokensAfter < result.estimatedTokensBefore * 0.95
          ? `~${before} → ~${after} tokens a turn`
          : `though it saves little yet (~${before} tokens)`;
      return `compacted ${what} (${result.entryId}): ${gain}; the tree keeps everything`;
    }
    case 'skipped':
      return `nothing to compact: ${result.reason}`;
    case 'blocked':
    case 'failed':
      throw new Error(result.reason);
  }
}

/** `/compact` and `/fork`: the slash commands that need more than the screen has. */
export function hostCommands(parts: HostCommandParts): HostCommand[] {
  const compact: HostCommand = {
    name: 'compact',
    args: '',
    help: 'summarize the conversation so far, so the next turns send less (nothing is deleted)',
    run: async (_args, ctx) => {
      if (ctx.readOnly) throw new Error('this session is open read-only: nothing can be compacted here');
      if (parts.providerUsable?.() === false)
        throw new Error(
          'compacting asks the model for a summary, and there is no model yet: /connect finds a local server',
        );
      const result = await ctx.runTask('compacting the conversation', (signal, emit) =>
        parts.agent.compact(signal, emit),
      );
      if (result === null) throw new Error('a turn is running: /compact once it ends');
      return describeCompaction(result);
    },
  };
  const fork: HostCommand = {
    name: 'fork',
    args: '',
    help: 'copy the path to the selected entry (or the checked-out one) into a new session; this one is not changed',
    run: (_args, ctx) => {
      if (ctx.targetId === null) throw new Error('nothing to fork yet: send a prompt first');
      const child = forkSession(parts.store, ctx.targetId, parts.sessionsDir, { clock, random: parts.random });
      const id = child.header.id;
      child.close();
      return `forked at ${ctx.targetId} into session ${id}: open it with /resume ${id}`;
    },
  };
  const sessions: HostCommand = {
    name: 'sessions',
    args: '',
    help: "this directory's sessions, newest first (/resume opens one here)",
    run: () => sessionsReport(parts),
  };
  return [compact, fork, sessions];
}

/** `/sessions`: what `tole sessions` lists for the session's directory, the open one marked. */
function sessionsReport(parts: HostCommandParts): CommandReport {
  const cwd = parts.store.header.cwd;
  const here = parts.store.header.id;
  const sessions = sessionsForListing(parts.sessionsDir, cwd, false);
  const flat = (text: string, width: number): string => {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > width ? `${line.slice(0, width - 1)}…` : line;
  };
  const lines = sessions.map(
    (s) =>
      `${s.id === here ? '▸' : ' '} ${s.id.padEnd(28)} ${new Date(s.createdAt).toISOString().replace('T', ' ').slice(0, 16)}  ${`${s.entries} ${s.entries === 1 ? 'entry' : 'entries'}`.padEnd(12)} ${formatCost(s.costUsdMicros, s.unpriced, s.estimated).padEnd(10)} ${s.problem ? `! ${flat(s.problem, 50)}` : `${s.name ? `${flat(s.name, 30)} · ` : ''}${flat(s.firstPrompt || '(no prompt yet)', 50)}`}`,
  );
  return {
    title: 'sessions',
    lines: [
      ...(lines.length === 0 ? [`no sessions for ${cwd} yet`] : lines),
      '',
      `${sessions.length} in ${cwd} · ▸ is this one · /resume switches to another here (tole sessions --all lists every directory)`,
    ],
  };
}
