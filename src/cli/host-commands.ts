import type { Random } from '../core/clock';
import type { CompactionResult } from '../core/session/compaction';
import { forkSession } from '../core/session/fork';
import type { SessionStore } from '../core/storage/session-store';
import { formatTokens } from '../tui/format';
import type { HostCommand } from '../tui/slash-commands';
import type { Agent } from '../core/session/agent';
import { clock } from './wiring';

export interface HostCommandParts {
  readonly agent: Pick<Agent, 'compact'>;
  readonly store: SessionStore;
  /** Where `/fork` puts the new session. */
  readonly sessionsDir: string;
  readonly random: Random;
  /** False while no provider is set up: `/compact` needs the model. */
  readonly providerUsable?: () => boolean;
}

/** What a compaction did, in a line. */
export function describeCompaction(result: CompactionResult): string {
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
      return `forked at ${ctx.targetId} into session ${id}: open it with tole --resume ${id}`;
    },
  };
  return [compact, fork];
}
