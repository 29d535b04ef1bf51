import { existsSync, linkSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomHex, type Clock, type Random } from '../clock';
import { backendOfPath, createStorage, extensionOf, type StorageBackend } from './backends';
import { StorageError } from './errors';
import { fsyncDirectory, nodeFileOps } from './file-ops';
import type { Commit, SessionHeader, StoredRecord } from './records';
import { linkedTempNameOf } from './session-name';
import { SessionStore } from './session-store';
import type { TornTail } from './storage';

interface ConvertOptions {
  readonly clock: Clock;
  readonly random: Random;
}

interface ConvertResult {
  readonly from: string;
  readonly to: string;
  readonly backend: StorageBackend;
  readonly entries: number;
  readonly registers: number;
  readonly usageRows: number;
  readonly lastSeq: number;
  /** A torn tail of the source, left out (the source itself is never changed). */
  readonly tornTail: TornTail | null;
}

/** `a/b.jsonl` -> `a/b.db` and back. */
export function convertedPath(path: string, to: StorageBackend): string {
  const from = extensionOf(backendOfPath(path));
  const stem = path.endsWith(from) ? path.slice(0, -from.length) : path;
  return `${stem}${extensionOf(to)}`;
}

/**
 * Reads a session read-only (validated by replay, the source untouched) and writes the same
 * header id, entries, register cells, usage rows and seqs in the other format, next to it. The
 * copy is built under a temp name and linked into place, so a crash leaves no half-made file,
 * and an existing file is never overwritten.
 */
export function convertSession(path: string, to: StorageBackend, options: ConvertOptions): ConvertResult {
  if (backendOfPath(path) === to) throw new Error(`assert: ${path} is already a ${to} session`);
  const target = convertedPath(path, to);
  if (existsSync(target)) throw exists(target);
  const source = readSession(path, options);
  const temp = linkedTempNameOf(target, options.random);
  try {
    const storage = createStorage(to, temp, source.header, {
      nonce: randomHex(options.random, 8),
      nowMs: options.clock.nowMs(),
    });
    try {
      storage.rewrite(source.commits, source.header);
    } finally {
      storage.close();
    }
    assertSameContent(temp, source, options);
    try {
      linkSync(temp, target);
    } catch (error) {
      throw (error as NodeJS.ErrnoException).code === 'EEXIST' ? exists(target) : error;
    }
  } finally {
    for (const leftover of [temp, `${temp}-wal`, `${temp}-shm`]) rmSync(leftover, { force: true });
  }
  fsyncDirectory(nodeFileOps, dirname(target));
  return { from: path, to: target, backend: to, ...source.counts, tornTail: source.tornTail };
}

interface Counts {
  readonly entries: number;
  readonly registers: number;
  readonly usageRows: number;
  readonly lastSeq: number;
}

interface Source {
  readonly header: SessionHeader;
  readonly commits: Commit[];
  readonly counts: Counts;
  readonly tornTail: TornTail | null;
}

function readSession(path: string, options: ConvertOptions): Source {
  const commits: Commit[] = [];
  let lastRecordSeq = 0;
  const onReplay = (records: readonly StoredRecord[]): void => {
    commits.push(records.length === 1 ? records[0]! : [...records]);
    lastRecordSeq = records[records.length - 1]!.seq;
  };
  const store = SessionStore.open(path, { ...options, readOnly: true, onReplay });
  try {
    const counts = countsOf(store);
    // Records that held the last seq may be gone (overwritten cells, compaction): the header keeps it.
    const header = counts.lastSeq > lastRecordSeq ? { ...store.header, compactedAtSeq: counts.lastSeq } : store.header;
    return { header, commits, counts, tornTail: store.report.tornTail };
  } finally {
    store.close();
  }
}

function countsOf(store: SessionStore): Counts {
  let registers = 0;
  for (const namespace of store.registers.namespaces()) registers += store.registers.entries(namespace).length;
  return { entries: store.tree.size, registers, usageRows: store.usage.length, lastSeq: store.lastSeq };
}

/** Reads the copy back before it is put in place. */
function assertSameContent(path: string, source: Source, options: ConvertOptions): void {
  const copy = SessionStore.open(path, { ...options, readOnly: true });
  try {
    const counts = countsOf(copy);
    const same = copy.header.id === source.header.id && JSON.stringify(counts) === JSON.stringify(source.counts);
    if (!same)
      throw new StorageError(
        'not-committed',
        `not converted: the copy read back ${JSON.stringify(counts)}, not ${JSON.stringify(source.counts)}`,
        { path },
      );
  } finally {
    copy.close();
  }
}

function exists(target: string): StorageError {
  return new StorageError(
    'exists',
    `${target} already exists: tole convert never overwrites a file; move it away first`,
    { path: target },
  );
}
