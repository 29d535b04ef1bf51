/**
 * The team's tables in memory for the fault simulator, with PostgreSQL's semantics where the
 * shipper relies on them: rows keyed as schema.ts keys them (an insert whose key exists keeps the
 * row there), one transaction at a time, committed whole or rolled back whole, and a connection
 * that drops at an operation the seed picks (the transaction it was in is rolled back, as the
 * server does when its client goes). The shipper drives it through TeamTable, the seam its
 * PostgreSQL statements sit behind (postgres-table.ts).
 */
import type { Random } from '../../src/core/clock';
import { isDeepStrictEqual } from 'node:util';
import { stringifiesTo } from './stringifies-to';
import type { TeamTable, RecordRow } from '../../src/core/sync/team-table';
import type { IntentRow, LiveCell, UsageQueryRow } from '../../src/core/sync/local-session';

/** Thrown by every operation from the one at which the connection drops. */
export class ConnectionLost extends Error {
  override readonly name = 'ConnectionLost';
}

interface SessionRow {
  shippedSeq: number;
  compactedAtSeq: number | null;
  holder: string | null;
}

type EffectRow = IntentRow & Record<string, unknown>;

interface Tables {
  sessions: Map<string, SessionRow>;
  records: Map<string, RecordRow>;
  entryIds: Map<string, number>;
  entrySeqs: Set<string>;
  effects: Map<string, EffectRow>;
  usage: Map<string, UsageQueryRow>;
  registers: Map<string, LiveCell>;
}

function copy(t: Tables): Tables {
  return {
    sessions: new Map([...t.sessions].map(([k, v]) => [k, { ...v }])),
    records: new Map(t.records),
    entryIds: new Map(t.entryIds),
    entrySeqs: new Set(t.entrySeqs),
    effects: new Map(t.effects),
    usage: new Map(t.usage),
    registers: new Map(t.registers),
  };
}

export class SimTeamTable {
  private tables: Tables = {
    sessions: new Map(),
    records: new Map(),
    entryIds: new Map(),
    entrySeqs: new Set(),
    effects: new Map(),
    usage: new Map(),
    registers: new Map(),
  };
  /** Each record row's body as JSON text, taken as it was inserted. */
  private readonly bodyTexts = new WeakMap<RecordRow, string>();
  /** The state before the open transaction, to go back to on rollback; null outside one. */
  private before: Tables | null = null;
  private ops = 0;
  /** The operation at which the connection drops (Infinity: it does not). */
  dropAtOp = Infinity;

  constructor(
    /** A planted bug: the cursor is moved in a transaction of its own, ahead of its rows. */
    private readonly cursorAlone = false,
  ) {}

  /** Drops the connection at one of the next `within` operations, the random picks which. */
  dropWithin(random: Random, within: number): void {
    this.dropAtOp = this.ops + 1 + Math.floor(random.float() * within);
  }

  cursor(id: string): number {
    return this.tables.sessions.get(id)?.shippedSeq ?? 0;
  }

  /**
   * Whether a record row's body is `record` as jsonb compares them. The body's text is taken once,
   * as the row is inserted (PostgreSQL keeps the value, not the shipper's object), instead of
   * stringifying it again in every later check: each check stringified every row held.
   */
  bodyMatches(row: RecordRow, record: unknown): boolean {
    return sameAsJsonbText(this.bodyText(row), record);
  }

  private bodyText(row: RecordRow): string {
    let text = this.bodyTexts.get(row);
    if (text === undefined) {
      text = JSON.stringify(row.body);
      this.bodyTexts.set(row, text);
    }
    return text;
  }

  /** The records held for a session, by seq. */
  recordsOf(id: string): Map<number, RecordRow> {
    const out = new Map<number, RecordRow>();
    for (const [key, row] of this.tables.records) if (key.startsWith(`${id} `)) out.set(row.seq, row);
    return out;
  }

  /** The tool-effect rows of a session, by intent entry id. */
  effectsOf(id: string): Map<string, EffectRow> {
    const out = new Map<string, EffectRow>();
    for (const [key, row] of this.tables.effects) if (key.startsWith(`${id} `)) out.set(row.intent_entry_id, row);
    return out;
  }

  private step(): Tables {
    if (++this.ops >= this.dropAtOp) {
      if (this.before !== null) {
        this.tables = this.before;
        this.before = null;
      }
      throw new ConnectionLost(`simulated: the connection to the team database dropped (operation ${this.ops})`);
    }
    return this.tables;
  }

  private inTransaction(what: string): Tables {
    const t = this.step();
    if (this.before === null) throw new Error(`${what} outside a transaction`);
    return t;
  }

  /** The seam the shipper takes. */
  table(): TeamTable {
    const insert = <R>(map: Map<string, R>, key: string, row: R): void => {
      if (!map.has(key)) map.set(key, row);
    };
    const update = (id: string, rows: readonly { intent_entry_id: string }[], what: string): void => {
      const t = this.inTransaction(what);
      for (const row of rows) {
        const key = `${id} ${row.intent_entry_id}`;
        const found = t.effects.get(key);
        if (found) t.effects.set(key, { ...found, ...row });
      }
    };
    return {
      transaction: async (body) => {
        this.step();
        if (this.before !== null) throw new Error('a transaction inside a transaction');
        this.before = copy(this.tables);
        try {
          const result = await body();
          this.step();
          this.before = null;
          return result;
        } catch (error) {
          if (this.before !== null) this.tables = this.before;
          this.before = null;
          throw error;
        }
      },
      cursor: async (id) => {
        this.step();
        return this.cursor(id);
      },
      recordMatches: async (id, seq, record) => {
        const row = this.step().records.get(`${id} ${seq}`);
        return row === undefined ? null : this.bodyMatches(row, record);
      },
      lockSession: async (local, identity) => {
        const t = this.inTransaction('lockSession');
        const holder = local.holder ? `${local.holder.host} ${local.holder.pid}` : null;
        const row = t.sessions.get(local.header.id);
        if (row) row.holder = holder;
        else t.sessions.set(local.header.id, { shippedSeq: 0, compactedAtSeq: null, holder });
        void identity;
        return t.sessions.get(local.header.id)!.shippedSeq;
      },
      insertRecords: async (id, rows) => {
        const t = this.inTransaction('insertRecords');
        for (const row of rows) {
          const key = `${id} ${row.seq}`;
          if (t.records.has(key)) continue;
          t.records.set(key, row);
          this.bodyText(row);
        }
      },
      insertEntries: async (id, rows) => {
        const t = this.inTransaction('insertEntries');
        for (const row of rows) {
          // Keyed by (session, seq) and unique by (session, id): a row clashing on either is not inserted.
          if (t.entrySeqs.has(`${id} ${row.seq}`) || t.entryIds.has(`${id} ${row.id}`)) continue;
          t.entrySeqs.add(`${id} ${row.seq}`);
          t.entryIds.set(`${id} ${row.id}`, row.seq);
        }
      },
      insertIntents: async (id, rows) => {
        const t = this.inTransaction('insertIntents');
        for (const row of rows) insert(t.effects, `${id} ${row.intent_entry_id}`, { ...row } as EffectRow);
      },
      applyApprovals: async (id, rows) => update(id, rows, 'applyApprovals'),
      applySettlements: async (id, rows) => update(id, rows, 'applySettlements'),
      insertUsage: async (id, rows) => {
        const t = this.inTransaction('insertUsage');
        for (const row of rows) insert(t.usage, `${id} ${row.seq}`, row);
      },
      upsertCells: async (id, cells) => {
        const t = this.inTransaction('upsertCells');
        for (const cell of cells) t.registers.set(`${id}\0${cell.namespace}\0${cell.key}`, cell);
      },
      deleteCells: async (id, cells) => {
        const t = this.inTransaction('deleteCells');
        for (const cell of cells) t.registers.delete(`${id}\0${cell.namespace}\0${cell.key}`);
      },
      clearCells: async (id) => {
        const t = this.inTransaction('clearCells');
        for (const key of [...t.registers.keys()]) if (key.startsWith(`${id}\0`)) t.registers.delete(key);
      },
      setCursor: async (id, seq) => {
        const t = this.inTransaction('setCursor');
        t.sessions.get(id)!.shippedSeq = seq;
        // The planted bug: the move is committed at once, whatever becomes of the rows.
        if (this.cursorAlone) this.before?.sessions.set(id, { ...t.sessions.get(id)! });
      },
      raiseCursor: async (id, seq, compactedAtSeq) => {
        const row = this.inTransaction('raiseCursor').sessions.get(id)!;
        row.shippedSeq = Math.max(row.shippedSeq, seq);
        row.compactedAtSeq = compactedAtSeq;
      },
    };
  }
}

/**
 * Whether a record, `textA` its JSON text, and `b` are equal as PostgreSQL's jsonb compares them (postgres-table.ts: `body =
 * $3::jsonb`): the same values, whatever order an object's keys were written in (a compacted file
 * writes a register's keys in another order than the commit that first wrote it).
 */
function sameAsJsonbText(textA: string, b: unknown): boolean {
  // The same JSON text parses to the same value: the parse and the deep comparison are needed only
  // when the texts differ (keys in another order, as jsonb does not keep them).
  if (stringifiesTo(b, textA)) return true;
  return isDeepStrictEqual(JSON.parse(textA), JSON.parse(JSON.stringify(b)));
}
