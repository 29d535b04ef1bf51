/** What the conformance suite runs against: both storage backends, through SessionStore. */
import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { it } from 'vitest';
import { seededRandom } from '../../../../src/core/clock';
import type { StorageBackend } from '../../../../src/core/storage/backends';
import type { DraftRecord } from '../../../../src/core/storage/records';
import { SessionStore } from '../../../../src/core/storage/session-store';
import { sqliteUnavailableReason } from '../../../../src/core/storage/sqlite-driver';
import { steppingClock, type StoreSnapshot } from '../../../support/storage-fixtures';

export const BACKENDS: readonly StorageBackend[] = ['jsonl', 'sqlite'];

const sqliteMissing = sqliteUnavailableReason();

/**
 * True when `backend` cannot run here: then it registers one skipped test that says why (or, under
 * CI, which installs better-sqlite3, one failing test), and the caller registers nothing else.
 */
export function skipUnavailable(backend: StorageBackend): boolean {
  if (backend !== 'sqlite' || sqliteMissing === null) return false;
  if (process.env['CI']) {
    it('loads better-sqlite3 (CI installs it)', () => {
      throw new Error(sqliteMissing);
    });
  } else {
    it.skip(`skipped: better-sqlite3 cannot be loaded here (${sqliteMissing})`, () => {});
  }
  return true;
}

let opener = 7000;

export function createIn(dir: string, backend: StorageBackend): SessionStore {
  return SessionStore.create(dir, {
    clock: steppingClock(),
    random: seededRandom(opener++),
    cwd: '/work/project',
    backend,
  });
}

/** The bytes on disk of a session: the file, and SQLite's write-ahead log when it holds anything. */
export function diskState(path: string): { main: Buffer; wal: Buffer | null } {
  const wal = existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`) : null;
  return { main: readFileSync(path), wal: wal && wal.length > 0 ? wal : null };
}

const NAMESPACES = ['lane.leaf', 'op.state', 'pending.intent', 'fact.label', 'fact.session'] as const;
const KEYS = ['a', 'b', 'call_1', 'ключ', '🔑 key'] as const;

const unicodeText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('\ud83d', 'a\udc00b', '\u2028\u2029', '\u0000\u001f', '"\\\n', ''),
);

export type Op =
  | { readonly t: 'entry'; readonly parentPick: number; readonly root: boolean; readonly text: string }
  | { readonly t: 'set'; readonly ns: string; readonly key: string; readonly value: unknown }
  | { readonly t: 'delete'; readonly ns: string; readonly key: string }
  | { readonly t: 'usage'; readonly model: string; readonly inputTokens: number };

export const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('entry' as const), parentPick: fc.nat(), root: fc.boolean(), text: unicodeText }),
  fc.record({
    t: fc.constant('set' as const),
    ns: fc.constantFrom(...NAMESPACES),
    key: fc.constantFrom(...KEYS),
    value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), unicodeText),
  }),
  fc.record({ t: fc.constant('delete' as const), ns: fc.constantFrom(...NAMESPACES), key: fc.constantFrom(...KEYS) }),
  fc.record({ t: fc.constant('usage' as const), model: unicodeText, inputTokens: fc.nat() }),
);

/** Commits of 1 to 4 records each. */
export const commitsArb = fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 });

/** The state the commits describe, built without any store: what replay must give back. */
export class Model {
  seq = 0;
  readonly ids: string[] = [];
  readonly entries: unknown[] = [];
  readonly usage: unknown[] = [];
  readonly registers = new Map<string, Map<string, [unknown, number]>>();
  private nextId = 1;

  drafts(ops: readonly Op[]): DraftRecord[] {
    return ops.map((o) => this.draft(o));
  }

  private draft(o: Op): DraftRecord {
    const seq = ++this.seq;
    const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
    switch (o.t) {
      case 'entry': {
        const id = `e_${this.nextId++}`;
        const parentId = o.root || this.ids.length === 0 ? null : this.ids[o.parentPick % this.ids.length]!;
        const record = {
          kind: 'entry',
          timestamp: 1000 + seq,
          id,
          parentId,
          type: 'user',
          payload: { text: o.text },
        } as const;
        this.ids.push(id);
        this.entries.push(json({ ...record, seq }));
        return record;
      }
      case 'set': {
        const ns = this.registers.get(o.ns) ?? new Map<string, [unknown, number]>();
        this.registers.set(o.ns, ns.set(o.key, [json(o.value), seq]));
        return { kind: 'register', op: 'set', namespace: o.ns, key: o.key, value: o.value };
      }
      case 'delete':
        this.registers.get(o.ns)?.delete(o.key);
        return { kind: 'register', op: 'delete', namespace: o.ns, key: o.key };
      case 'usage': {
        const record = {
          kind: 'usage',
          id: `u_${this.nextId++}`,
          entryId: this.ids.at(-1) ?? null,
          usage: { model: o.model, inputTokens: o.inputTokens },
        } as const;
        this.usage.push(json({ kind: 'usage', seq, id: record.id, entryId: record.entryId, usage: record.usage }));
        return record;
      }
    }
  }

  snapshot(): StoreSnapshot {
    const registers: Record<string, [string, unknown, number][]> = {};
    for (const ns of [...this.registers.keys()].sort()) {
      const cells = [...this.registers.get(ns)!].map(([key, [value, seq]]): [string, unknown, number] => [
        key,
        value,
        seq,
      ]);
      if (cells.length > 0) registers[ns] = cells.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    }
    return { lastSeq: this.seq, entries: this.entries, usage: this.usage, registers };
  }
}
