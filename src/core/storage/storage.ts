import type { Commit, SessionHeader } from './records';

/** What opening a session file found, for the host to tell the user. */
export interface OpenReport {
  /** Commit lines replayed (the header not counted). */
  readonly commitLines: number;
  readonly bytes: number;
  /** A bad final line (or garbage after the last good one): cut away on a writable open. */
  readonly tornTail: TornTail | null;
  /**
   * The highest seq ever committed, when the backend keeps it apart from its records (SQLite
   * overwrites register cells in place, so the record that held it may be gone).
   */
  readonly lastSeq?: number;
  /**
   * A saved index the open did not use because the user's key does not vouch for it (the file
   * was replayed instead): where it was and why, and where a writable open moved it (null: left).
   */
  readonly indexSetAside?: { readonly path: string; readonly reason: string; readonly movedTo: string | null };
}

export interface TornTail {
  /** 1-based line number of the first bad line. */
  readonly line: number;
  readonly offset: number;
  readonly bytes: number;
  readonly reason: string;
  /** True when the file was truncated and fsynced; false on a read-only open. */
  readonly repaired: boolean;
  /** Where the cut bytes were copied (`<file>.torn-<time>`) before the cut. */
  readonly savedTo?: string;
}

/** Called for each good commit, in file order, with its line's size; throwing refuses the open. */
export type CommitSink = (commit: Commit, line: number, lineBytes: number) => void;

/** A durable, append-only home for one session's commits. JSONL by default. */
export interface Storage {
  readonly path: string;
  readonly header: SessionHeader;
  readonly readOnly: boolean;
  readonly report: OpenReport;
  /** Bytes of the file as committed. */
  readonly sizeBytes: number;
  /**
   * Durable before it returns: whole commit written, then fdatasync. Throws StorageError.
   * `json`, when given, is `JSON.stringify(commit)`, so that it is not serialised twice.
   */
  append(commit: Commit, json?: string): void;
  /** Replaces the file's commits with `commits` atomically (storage compaction), optionally under a new header. */
  rewrite(commits: readonly Commit[], header?: SessionHeader): void;
  /**
   * Saves the state just replayed beside the file so the next open skips replaying it (JSONL
   * only; see JsonlStorage.saveIndex). False when nothing was saved.
   */
  saveIndex?(
    snapshot: (file: Buffer) => { state: unknown; numbers: Float64Array; ids: readonly string[] } | null,
  ): boolean;
  /** Bytes of the file whose state the open took from a saved index (JSONL only). */
  readonly indexedBytes?: number;
  close(): void;
}
