/** The logical content of a session file: a header, then commits of records. */
import type { RegisterRecord } from '../registers/register-record';

export const STORAGE_VERSION = 1;
export const LINE_CRC = 'crc32-chained';
/** The largest commit the store writes (tool output is capped far below this). */
export const MAX_COMMIT_BYTES = 16 * 1024 * 1024;

export interface SessionHeader {
  readonly v: 1;
  readonly kind: 'header';
  readonly id: string;
  readonly storageVersion: number;
  readonly createdAt: number;
  readonly cwd: string;
  readonly lineCrc: typeof LINE_CRC;
  /**
   * Set by storage compaction: the last seq when the file was rewritten. Dropped register lines
   * may have held higher seqs than any kept line; new commits continue above this one.
   */
  readonly compactedAtSeq?: number;
  /** Set when the session was forked from another one, or runs a sub-agent for it (`task`). */
  readonly parent?: ParentLink;
}

/** The session a session came from, and the entry it came from there. */
export interface ParentLink {
  readonly sessionId: string;
  readonly entryId: string;
  readonly path?: string;
  /** Set for a sub-agent: the parent's `task` call (its intent is `entryId`) this session answers. */
  readonly task?: TaskLink;
}

export interface TaskLink {
  readonly callId: string;
  /** The agent profile the sub-agent runs (null: the parent's prompt and tools). */
  readonly agent: string | null;
  /** 1 for a child of a top-level session, 2 for its child, ... */
  readonly depth: number;
}

export interface EntryRecord {
  readonly kind: 'entry';
  readonly seq: number;
  readonly timestamp: number;
  readonly id: string;
  readonly parentId: string | null;
  readonly type: string;
  readonly payload: unknown;
}

export interface UsageRecord {
  readonly kind: 'usage';
  readonly seq: number;
  readonly id: string;
  readonly entryId: string | null;
  readonly usage: unknown;
}

export type StoredRecord = EntryRecord | RegisterRecord | UsageRecord;

/** One physical line: a single record, or an array of records that commit together. */
export type Commit = StoredRecord | readonly StoredRecord[];

export function commitRecords(commit: Commit): readonly StoredRecord[] {
  return Array.isArray(commit) ? (commit as readonly StoredRecord[]) : [commit as StoredRecord];
}

/** A record before the store gives it a seq. */
type Draft<R> = R extends StoredRecord ? Omit<R, 'seq'> : never;
export type DraftRecord = Draft<StoredRecord>;
