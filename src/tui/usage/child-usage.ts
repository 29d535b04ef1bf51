import type { Clock } from '../../core/clock';
import { NS } from '../../core/registers/namespaces';
import { childrenOf, readChild } from '../../core/session/child-sessions';
import type { ChildEvent } from '../../core/session/sub-agents';
import type { PendingIntent } from '../../core/session/tool-step';
import type { UsageRecord } from '../../core/storage/records';
import type { SessionStore } from '../../core/storage/session-store';
import type { UsageRow } from '../../core/usage/usage-row';

/** One sub-agent's usage, as the usage pane rolls it into its parent's rows. */
export interface ChildUsage {
  readonly sessionId: string;
  readonly agent: string | null;
  readonly model: string;
  /** The parent's intent of the call that started it: its usage counts where that entry is. */
  readonly intentEntryId: string | null;
  readonly rows: readonly UsageRecord[];
  readonly running: boolean;
}

/** Where the screen hears of running children (`SubAgents`). */
export interface ChildEventSource {
  onChildEvent(listener: (event: ChildEvent) => void): () => void;
}

/**
 * The usage of a session's sub-agents: read from their own files for those that ran before, and
 * followed from their events while they run. `version` moves with every change.
 */
export class ChildUsageBook {
  private readonly byId = new Map<string, ChildUsage>();
  version = 0;

  constructor(
    private readonly store: SessionStore,
    private readonly clock: Clock,
  ) {}

  /** Reads every child that is not running from its file (the parent settled a call, or the screen opened). */
  reload(): void {
    for (const ref of childrenOf(this.store, this.store.tree.all())) {
      if (this.byId.get(ref.sessionId)?.running) continue;
      const rows = readChild(ref, this.clock, (child) => child.usage.slice()) ?? [];
      const model = (rows.at(-1)?.usage as UsageRow | undefined)?.model ?? '';
      this.byId.set(ref.sessionId, {
        sessionId: ref.sessionId,
        agent: ref.agent,
        model,
        intentEntryId: ref.intentEntryId,
        rows,
        running: false,
      });
    }
    this.version++;
  }

  /** A running child's event: its usage rows as they land, and its end. */
  add(event: ChildEvent): void {
    const { type } = event.event;
    if (type !== 'usage' && type !== 'turn-ended' && type !== 'turn-started') return;
    const known = this.byId.get(event.sessionId);
    const intent = this.store.registers.get<PendingIntent>(NS.pending, event.callId);
    const base: ChildUsage = known ?? {
      sessionId: event.sessionId,
      agent: event.agent,
      model: event.model,
      intentEntryId: intent?.entryId ?? null,
      rows: [],
      running: true,
    };
    const rows = event.event.type === 'usage' ? [...base.rows, event.event.row] : base.rows;
    this.byId.set(event.sessionId, { ...base, model: event.model, rows, running: type !== 'turn-ended' });
    this.version++;
  }

  list(): ChildUsage[] {
    return [...this.byId.values()];
  }
}
