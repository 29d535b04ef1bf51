/**
 * The team's tables as the shipper writes them: one operation per statement it runs, so that
 * the shipper's logic (what goes in which transaction, where the cursor moves) is one piece of
 * code whether it speaks SQL to PostgreSQL (postgres-table.ts) or runs in the fault simulator
 * against tables in memory with the same keys and transactions.
 *
 * Every insert keeps the row already there when its key exists (ON CONFLICT DO NOTHING); the
 * cursor (`sessions.shipped_seq`) and the rows it covers move in one transaction.
 */
import type {
  ApprovalRow,
  EntryRow,
  IntentRow,
  LiveCell,
  LocalSession,
  SettlementRow,
  UsageQueryRow,
} from './local-session';
import type { StoredRecord } from '../storage/records';

export interface ShipIdentity {
  /** Who the sessions are from, for the cost views (config sync.person, else the login name). */
  readonly person: string;
  readonly host: string;
}

/** A row of `tole.records`: a committed record as the file holds it. */
export interface RecordRow {
  readonly seq: number;
  /** The first seq of its commit. */
  readonly commit_seq: number;
  readonly kind: string;
  readonly body: StoredRecord;
}

export interface TeamTable {
  /** Runs `body` in one transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(body: () => Promise<T>): Promise<T>;
  /** The session's cursor (0 when the server has no row for it). */
  cursor(id: string): Promise<number>;
  /** Whether the server's record at `seq` is `record` (null: it holds none there). */
  recordMatches(id: string, seq: number, record: StoredRecord): Promise<boolean | null>;
  /**
   * Inside a transaction: creates the session's row when it is new, refreshes who holds it,
   * locks it until the transaction ends, and returns its cursor.
   */
  lockSession(local: LocalSession, identity: ShipIdentity): Promise<number>;
  insertRecords(id: string, rows: readonly RecordRow[]): Promise<void>;
  insertEntries(id: string, rows: readonly EntryRow[]): Promise<void>;
  insertIntents(id: string, rows: readonly IntentRow[]): Promise<void>;
  /** Sets the approval columns of the intents' rows. */
  applyApprovals(id: string, rows: readonly ApprovalRow[]): Promise<void>;
  /** Sets the settlement columns of the intents' rows. */
  applySettlements(id: string, rows: readonly SettlementRow[]): Promise<void>;
  insertUsage(id: string, rows: readonly UsageQueryRow[]): Promise<void>;
  /** Sets live register cells (inserted, or replacing the cell of the same namespace and key). */
  upsertCells(id: string, cells: readonly LiveCell[]): Promise<void>;
  deleteCells(id: string, cells: readonly { readonly namespace: string; readonly key: string }[]): Promise<void>;
  /** Removes every live register cell of the session. */
  clearCells(id: string): Promise<void>;
  /** Moves the cursor to `seq`. */
  setCursor(id: string, seq: number): Promise<void>;
  /** Moves the cursor up to `seq` (never down) and records the file's compaction floor. */
  raiseCursor(id: string, seq: number, compactedAtSeq: number | null): Promise<void>;
}
