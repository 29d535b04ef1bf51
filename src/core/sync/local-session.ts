/**
 * What the shipper reads from one local session file: replayed read-only (no lock taken, the file
 * untouched, a torn tail left out), the commits above the server's cursor with the query rows
 * each one adds, and the live register cells for when records below the file's last seq are gone
 * (storage compaction, a SQLite copy).
 */
import { seededRandom, type Clock } from '../clock';
import { NS } from '../registers/namespaces';
import type { UsageRow } from '../usage/usage-row';
import { type FileOps, nodeFileOps } from '../storage/file-ops';
import { isStale, lockPathFor, readLockOwner } from '../storage/lock-file';
import type { EntryRecord, SessionHeader, StoredRecord, UsageRecord } from '../storage/records';
import { SessionStore } from '../storage/session-store';
import type { AnyEntry, EntryPayloads } from '../tree/entry-types';

export interface EntryRow {
  readonly seq: number;
  readonly id: string;
  readonly parent_id: string | null;
  readonly type: string;
  readonly lane: string | null;
  readonly at_ms: number;
  readonly payload: unknown;
}

export interface IntentRow {
  readonly intent_entry_id: string;
  readonly intent_seq: number;
  readonly call_id: string;
  readonly tool: string;
  readonly subject: string;
  readonly risk: string;
  readonly reason: string | null;
  readonly replay: string | null;
  readonly input: unknown;
  readonly lane: string | null;
  readonly at_ms: number;
  readonly approved: boolean | null;
  readonly approved_by: string | null;
  readonly approval_rule: string | null;
  readonly approval_reason: string | null;
}

export interface ApprovalRow {
  readonly intent_entry_id: string;
  readonly approval_entry_id: string;
  readonly approved: boolean;
  readonly approved_by: string;
  readonly approval_rule: string | null;
  readonly approval_reason: string | null;
}

export interface SettlementRow {
  readonly intent_entry_id: string;
  readonly settlement_entry_id: string;
  readonly outcome: string;
  readonly resumed_by: string | null;
  readonly duration_ms: number | null;
  readonly at_ms: number;
}

export interface UsageQueryRow {
  readonly seq: number;
  readonly id: string;
  readonly entry_id: string | null;
  readonly model: string;
  readonly attempt: number | null;
  readonly outcome: string | null;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cached_input_tokens: number;
  readonly cache_write_tokens: number;
  readonly cost_usd_micros: number;
  readonly priced: boolean;
  readonly latency_ms: number | null;
  readonly lane: string | null;
  readonly error: string | null;
  readonly at_ms: number;
}

/** One commit to ship: its records as the file holds them, and the rows they add. */
export interface ShipCommit {
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly records: readonly StoredRecord[];
  readonly entries: readonly EntryRow[];
  readonly intents: readonly IntentRow[];
  readonly approvals: readonly ApprovalRow[];
  readonly settlements: readonly SettlementRow[];
  readonly usage: readonly UsageQueryRow[];
}

export interface LiveCell {
  readonly namespace: string;
  readonly key: string;
  readonly seq: number;
  readonly value: unknown;
}

export interface LocalSession {
  readonly path: string;
  readonly header: SessionHeader;
  /** The highest seq the session has given out (compaction's floor counted). */
  readonly lastSeq: number;
  readonly commits: readonly ShipCommit[];
  /** Seqs in (cursor, lastSeq] that no record holds: the server's registers must be made to match. */
  readonly gap: boolean;
  readonly liveRegisters: readonly LiveCell[];
  readonly firstPrompt: string | null;
  /** The tole that has the file open now (its lock), or null. */
  readonly holder: { readonly host: string; readonly pid: number } | null;
  /**
   * The file's record at the cursor's seq and its last entry at or below it (entries carry
   * content and time): the server must hold the same ones, or the session went two ways.
   */
  readonly atCursor: readonly StoredRecord[];
}

const inertClock: Clock = { nowMs: () => 0, nowNs: () => 0n };

/** Replays `path` read-only and keeps what has seq above `cursor`. */
export function readLocalSession(path: string, cursor: number, ops: FileOps = nodeFileOps): LocalSession {
  const laneOf = new Map<string, string | null>();
  const intentOf = new Map<string, string>();
  let lastEntryMs = 0;
  let firstPrompt: string | null = null;
  let recordsAbove = 0;
  const commits: ShipCommit[] = [];
  let createdAt = 0;
  let recordAtCursor: StoredRecord | null = null;
  let entryAtCursor: StoredRecord | null = null;

  const onReplay = (records: readonly StoredRecord[]): void => {
    let leafLane: string | null = null;
    for (const r of records)
      if (r.kind === 'register' && r.op === 'set' && r.namespace === NS.laneLeaf) leafLane = r.key;
    const above = records[records.length - 1]!.seq > cursor;
    const rows = {
      entries: [] as EntryRow[],
      intents: [] as IntentRow[],
      approvals: [] as ApprovalRow[],
      settlements: [] as SettlementRow[],
      usage: [] as UsageQueryRow[],
    };
    for (const record of records) {
      if (record.seq === cursor) recordAtCursor = record;
      if (record.kind === 'entry' && record.seq <= cursor) entryAtCursor = record;
      const keep = record.seq > cursor;
      if (keep) recordsAbove++;
      if (record.kind === 'entry') {
        const lane = leafLane ?? (record.parentId !== null ? (laneOf.get(record.parentId) ?? null) : null);
        laneOf.set(record.id, lane);
        lastEntryMs = record.timestamp;
        const entry = record as EntryRecord as AnyEntry;
        if (firstPrompt === null && entry.type === 'user') firstPrompt = entry.payload.text;
        if (entry.type === 'tool_intent') intentOf.set(entry.payload.callId, entry.id);
        if (keep) addEntryRows(rows, entry, lane, intentOf);
      } else if (record.kind === 'usage' && keep) {
        rows.usage.push(usageRow(record, lastEntryMs || createdAt));
      }
    }
    if (!above) return;
    const kept = records.filter((r) => r.seq > cursor);
    commits.push({ firstSeq: kept[0]!.seq, lastSeq: kept[kept.length - 1]!.seq, records: kept, ...rows });
  };

  const store = SessionStore.open(path, {
    clock: inertClock,
    random: seededRandom(1),
    readOnly: true,
    ops,
    onReplay: (records) => onReplay(records),
  });
  try {
    createdAt = store.header.createdAt;
    const liveRegisters: LiveCell[] = [];
    for (const namespace of store.registers.namespaces()) {
      for (const [key, cell] of store.registers.entries(namespace))
        liveRegisters.push({ namespace, key, seq: cell.seq, value: cell.value });
    }
    const lastSeq = store.lastSeq;
    return {
      path,
      header: store.header,
      lastSeq,
      commits,
      gap: lastSeq > cursor && recordsAbove !== lastSeq - cursor,
      liveRegisters,
      firstPrompt,
      holder: holderOf(path, ops),
      atCursor: ([recordAtCursor, entryAtCursor] as (StoredRecord | null)[]).filter(
        (r, i, all): r is StoredRecord => r !== null && all.indexOf(r) === i,
      ),
    };
  } finally {
    store.close();
  }
}

function addEntryRows(
  rows: { entries: EntryRow[]; intents: IntentRow[]; approvals: ApprovalRow[]; settlements: SettlementRow[] },
  entry: AnyEntry,
  lane: string | null,
  intentOf: Map<string, string>,
): void {
  rows.entries.push({
    seq: entry.seq,
    id: entry.id,
    parent_id: entry.parentId,
    type: entry.type,
    lane,
    at_ms: entry.timestamp,
    payload: entry.payload,
  });
  if (entry.type === 'tool_intent') {
    const p: EntryPayloads['tool_intent'] = entry.payload;
    rows.intents.push({
      intent_entry_id: entry.id,
      intent_seq: entry.seq,
      call_id: p.callId,
      tool: p.tool,
      subject: p.subject,
      risk: p.risk,
      reason: p.reason ?? null,
      replay: p.replay ?? null,
      input: p.input ?? null,
      lane,
      at_ms: entry.timestamp,
      approved: p.approval ? p.approval.approved : null,
      approved_by: p.approval?.by ?? null,
      approval_rule: p.approval && 'rule' in p.approval ? (p.approval.rule ?? null) : null,
      approval_reason: p.approval?.reason ?? null,
    });
  } else if (entry.type === 'approval') {
    const intent = intentOf.get(entry.payload.callId);
    const d = entry.payload.decision;
    if (intent) {
      rows.approvals.push({
        intent_entry_id: intent,
        approval_entry_id: entry.id,
        approved: d.approved,
        approved_by: d.by,
        approval_rule: 'rule' in d ? (d.rule ?? null) : null,
        approval_reason: d.reason ?? null,
      });
    }
  } else if (entry.type === 'tool_result') {
    const intent = intentOf.get(entry.payload.callId);
    const p = entry.payload;
    if (intent) {
      rows.settlements.push({
        intent_entry_id: intent,
        settlement_entry_id: entry.id,
        outcome: p.outcome,
        resumed_by: p.resumedBy ?? null,
        duration_ms: p.durationMs ?? null,
        at_ms: entry.timestamp,
      });
    }
  }
}

function usageRow(record: UsageRecord, atMs: number): UsageQueryRow {
  const u = (record.usage ?? {}) as Partial<UsageRow>;
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : 0);
  return {
    seq: record.seq,
    id: record.id,
    entry_id: record.entryId,
    model: typeof u.model === 'string' ? u.model : '',
    attempt: typeof u.attempt === 'number' ? u.attempt : null,
    outcome: typeof u.outcome === 'string' ? u.outcome : null,
    input_tokens: n(u.inputTokens),
    output_tokens: n(u.outputTokens),
    cached_input_tokens: n(u.cachedInputTokens),
    cache_write_tokens: n(u.cacheWriteTokens),
    cost_usd_micros: n(u.costUsdMicros),
    priced: u.priced === true,
    latency_ms: typeof u.latencyMs === 'number' ? Math.round(u.latencyMs) : null,
    lane: typeof u.lane === 'string' ? u.lane : null,
    error: typeof u.error === 'string' ? u.error : null,
    at_ms: atMs,
  };
}

/** Who holds the file's lock now; a lock left by a dead process on this host holds nothing. */
function holderOf(path: string, ops: FileOps): { host: string; pid: number } | null {
  const owner = readLockOwner(ops, lockPathFor(path));
  if (owner === null || isStale(owner, ops.processes)) return null;
  return { host: owner.host, pid: owner.pid };
}
