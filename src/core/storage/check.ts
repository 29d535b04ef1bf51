import { seededRandom, type Clock } from '../clock';
import { plainName } from '../plain-name';
import { NS } from '../registers/namespaces';
import { describeIoError, isStorageError } from './errors';
import { laneRegistersProblem } from './lane-registers-problem';
import type { FileOps } from './file-ops';
import { checkSavedIndex, type IndexVerdict } from './index-check';
import type { SessionHeader, StoredRecord } from './records';
import type { IndexKey } from './session-index';
import type { Entry } from '../tree/entry-types';
import { malformedAttachmentsMessage, userAttachmentsProblem } from '../tree/user-attachments-problem';
import { SessionStore } from './session-store';

/** What `tole check PATH` found. `ok` is false only when a writable open would be refused. */
interface CheckReport {
  readonly path: string;
  readonly ok: boolean;
  readonly problem: CheckProblem | null;
  readonly header: SessionHeader | null;
  /** Bytes of verified commits (the torn tail not counted). */
  readonly bytes: number;
  /** Commit lines that verified, up to the problem if there is one. */
  readonly commitLines: number;
  readonly entries: number;
  /** The session's name (register `fact.session` / `name`, set by `/name`), or null. */
  readonly name: string | null;
  readonly entriesByType: Readonly<Record<string, number>>;
  /** Namespace -> live cells. */
  readonly registers: Readonly<Record<string, number>>;
  readonly lanes: readonly LaneSummary[];
  readonly seq: { readonly first: number; readonly last: number } | null;
  readonly usageRows: number;
  /** The saved index beside the file, compared value by value with the file's own replay. */
  readonly savedIndex: IndexVerdict;
  /** A bad final line that the next writable open would cut away. */
  readonly tornTail: {
    readonly line: number;
    readonly offset: number;
    readonly bytes: number;
    readonly reason: string;
  } | null;
}

/** `index`: the file is sound, but the saved index beside it says otherwise than the file. */
type CheckProblemKind = 'corrupt' | 'version' | 'not-found' | 'unreadable' | 'index';

interface CheckProblem {
  readonly file: string;
  /** 1-based line, when the problem sits on one. */
  readonly line: number | null;
  readonly kind: CheckProblemKind;
  readonly message: string;
}

interface LaneSummary {
  readonly lane: string;
  readonly leaf: string;
  /** Entries on the path from the root to the leaf; 0 when the leaf is missing. */
  readonly pathLength: number;
  readonly leafExists: boolean;
}

/** Nothing in a read-only open reads the clock or randomness for anything that lasts. */
const inertClock: Clock = { nowMs: () => 0, nowNs: () => 0n };

/** Replays a session file read-only, without taking its lock, and reports what it holds. */
/** `indexKey`: the user's key for the saved index's MAC; without it the index is never used, so `unused`. */
export function checkSessionFile(path: string, ops?: FileOps, indexKey?: IndexKey): CheckReport {
  const seen = { commitLines: 0, first: 0, last: 0 };
  const onReplay = (records: readonly StoredRecord[]): void => {
    seen.commitLines++;
    if (seen.first === 0) seen.first = records[0]!.seq;
    seen.last = records[records.length - 1]!.seq;
  };
  let store: SessionStore;
  try {
    store = SessionStore.open(path, {
      readOnly: true,
      clock: inertClock,
      random: seededRandom(1),
      onReplay,
      ...(ops ? { ops } : {}),
    });
  } catch (error) {
    return failedReport(path, toProblem(path, error), seen);
  }
  try {
    const report = soundReport(store, seen, checkSavedIndex(path, store, ops, indexKey));
    const damaged = malformedEntry(store);
    if (damaged !== null) return { ...report, ok: false, problem: damaged };
    const lanes = laneRegistersProblem(store.path, store.registers, store.tree);
    if (lanes !== null)
      return { ...report, ok: false, problem: { file: store.path, line: null, kind: 'corrupt', message: lanes } };
    if (report.savedIndex.kind !== 'mismatch') return report;
    const { path: indexPath, what } = report.savedIndex;
    const message = `the saved index ${indexPath} does not match the file (${what}); an open would take its values: move it aside (mv ${indexPath} ${indexPath}.bad) and the next open replays the file and writes a new one`;
    return { ...report, ok: false, problem: { file: indexPath, line: null, kind: 'index', message } };
  } finally {
    store.close();
  }
}

/** The first entry whose payload tole refuses to use (a user entry's malformed attachments), as the problem to report. */
function malformedEntry(store: SessionStore): CheckProblem | null {
  for (const entry of store.tree.all()) {
    if (entry.type !== 'user') continue;
    const problem = userAttachmentsProblem(entry as Entry<'user'>);
    if (problem !== null)
      return { file: store.path, line: null, kind: 'corrupt', message: malformedAttachmentsMessage(entry.id, problem) };
  }
  return null;
}

function soundReport(
  store: SessionStore,
  seen: { commitLines: number; first: number; last: number },
  savedIndex: IndexVerdict,
): CheckReport {
  const registers: Record<string, number> = {};
  for (const namespace of [...store.registers.namespaces()].sort()) {
    const cells = store.registers.entries(namespace).length;
    if (cells > 0) registers[namespace] = cells;
  }
  const entriesByType: Record<string, number> = {};
  for (const entry of store.tree.all()) entriesByType[entry.type] = (entriesByType[entry.type] ?? 0) + 1;
  const torn = store.report.tornTail;
  return {
    path: store.path,
    ok: true,
    problem: null,
    header: store.header,
    bytes: store.report.bytes,
    commitLines: store.report.commitLines,
    entries: store.tree.size,
    name: nameOf(store),
    entriesByType,
    registers,
    lanes: laneSummaries(store),
    seq: seen.commitLines > 0 ? { first: seen.first, last: store.lastSeq } : null,
    usageRows: store.usage.length,
    savedIndex,
    tornTail: torn ? { line: torn.line, offset: torn.offset, bytes: torn.bytes, reason: torn.reason } : null,
  };
}

function nameOf(store: SessionStore): string | null {
  const value = store.registers.get<unknown>(NS.session, 'name');
  // Printed to a terminal: read as plain text, as everywhere a name is shown.
  return typeof value === 'string' ? plainName(value) : null;
}

function laneSummaries(store: SessionStore): LaneSummary[] {
  return store.registers.entries(NS.laneLeaf).map(([lane, cell]) => {
    const leaf = String(cell.value);
    const leafExists = store.tree.has(leaf);
    return { lane, leaf, leafExists, pathLength: leafExists ? store.tree.depthOf(leaf) + 1 : 0 };
  });
}

function toProblem(path: string, error: unknown): CheckProblem {
  if (isStorageError(error)) {
    const kind: CheckProblemKind =
      error.kind === 'version' || error.kind === 'not-found'
        ? error.kind
        : error.kind === 'corrupt'
          ? 'corrupt'
          : 'unreadable';
    return { file: path, line: error.details.line ?? null, kind, message: error.message };
  }
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT') return { file: path, line: null, kind: 'not-found', message: `no session file at ${path}` };
  const cause = describeIoError(error);
  return { file: path, line: null, kind: 'unreadable', message: `${path}: cannot be read (${cause})` };
}

function failedReport(
  path: string,
  problem: CheckProblem,
  seen: { commitLines: number; first: number; last: number },
): CheckReport {
  return {
    path,
    ok: false,
    problem,
    header: null,
    bytes: 0,
    commitLines: seen.commitLines,
    entries: 0,
    name: null,
    entriesByType: {},
    registers: {},
    lanes: [],
    seq: seen.commitLines > 0 ? { first: seen.first, last: seen.last } : null,
    usageRows: 0,
    savedIndex: { kind: 'none' },
    tornTail: null,
  };
}

/**
 * Plain text lines for `tole check`: no colours, one fact per line. What the file holds (its
 * directory, ids, lane names, register namespaces) is printed to a terminal: each line is read
 * as plain text, so a hostile file's escape sequences do not reach it.
 */
export function formatCheckReport(report: CheckReport): string {
  return reportLines(report)
    .map((line) => line.replace(CONTROL, ''))
    .join('\n');
}

/** Control characters, line breaks included: a line of the report stays one line. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

function reportLines(report: CheckReport): string[] {
  const lines = [`session file: ${report.path}`];
  if (report.problem) {
    const where = report.problem.line === null ? '' : ` at line ${report.problem.line}`;
    lines.push(`PROBLEM (${report.problem.kind})${where}: ${report.problem.message}`);
    if (report.commitLines > 0)
      lines.push(`verified before it: ${report.commitLines} commit lines, seq ${formatSeq(report)}`);
    return lines;
  }
  const header = report.header!;
  lines.push(report.tornTail ? 'sound, with a torn tail (a write cut short by a crash)' : 'sound');
  lines.push(
    `session:   ${header.id} (storage version ${header.storageVersion}, created ${new Date(header.createdAt).toISOString()})`,
  );
  if (report.name !== null) lines.push(`name:      ${report.name}`);
  lines.push(`cwd:       ${header.cwd}`);
  if (header.parent) lines.push(`forked:    from ${header.parent.sessionId} at entry ${header.parent.entryId}`);
  lines.push(`size:      ${report.bytes} bytes in ${report.commitLines} commit lines, seq ${formatSeq(report)}`);
  lines.push(`entries:   ${report.entries}${formatCounts(report.entriesByType)}`);
  lines.push(`usage:     ${report.usageRows} rows`);
  lines.push(
    `registers: ${Object.keys(report.registers).length === 0 ? 'none' : formatCounts(report.registers).slice(2, -1)}`,
  );
  for (const lane of report.lanes) {
    lines.push(
      `lane:      ${lane.lane} -> ${lane.leaf} (${lane.leafExists ? `${lane.pathLength} entries from the root` : 'MISSING entry'})`,
    );
  }
  const index = report.savedIndex;
  if (index.kind === 'matches')
    lines.push(`index:     ${index.path} matches the file (its first ${index.bytes} bytes)`);
  if (index.kind === 'unused')
    lines.push(`index:     ${index.path} is not used (stale or damaged); the next writable open writes it again`);
  if (report.tornTail) {
    const t = report.tornTail;
    lines.push(
      `torn tail: line ${t.line}, ${t.bytes} bytes at offset ${t.offset} (${t.reason}); the next writable open copies it to ${report.path}.torn-<time> and cuts it away`,
    );
  }
  return lines;
}

function formatSeq(report: CheckReport): string {
  return report.seq ? `${report.seq.first}..${report.seq.last}` : 'none';
}

function formatCounts(counts: Readonly<Record<string, number>>): string {
  const parts = Object.entries(counts).map(([name, n]) => `${name} ${n}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}
