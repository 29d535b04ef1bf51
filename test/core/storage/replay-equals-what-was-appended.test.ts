import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { DraftRecord } from '../../../src/core/storage/records';
import { createStore, openStore, snapshot, tempDir, type StoreSnapshot } from '../../support/storage-fixtures';
import { fcRuns } from '../../support/fc-runs';

const dir = tempDir();
afterAll(() => dir.remove());

const NAMESPACES = ['lane.leaf', 'op.state', 'pending.intent', 'fact.label', 'fact.session'] as const;
const KEYS = ['a', 'b', 'call_1', 'ключ', '🔑 key'] as const;

const unicodeText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('\ud83d', 'a\udc00b', '\u2028\u2029', '\u0000\u001f', '"\\\n', ''),
);

type Op =
  | { readonly t: 'entry'; readonly parentPick: number; readonly root: boolean; readonly text: string }
  | { readonly t: 'set'; readonly ns: string; readonly key: string; readonly value: unknown }
  | { readonly t: 'delete'; readonly ns: string; readonly key: string }
  | { readonly t: 'usage'; readonly model: string; readonly inputTokens: number };

const op: fc.Arbitrary<Op> = fc.oneof(
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
const commits = fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 });

/** The state the commits describe, built without the store: what replay must give back. */
class Model {
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

describe('replay of a session file', () => {
  it('gives back exactly what was appended: entries, register sets and deletes, usage rows', () => {
    fc.assert(
      fc.property(commits, (sequence) => {
        const model = new Model();
        const store = createStore(dir.path);
        for (const ops of sequence) store.commit(model.drafts(ops));
        const live = snapshot(store);
        store.close();
        const replayed = openStore(store.path);
        const state = snapshot(replayed);
        replayed.close();
        expect(state).toEqual(model.snapshot());
        expect(live).toEqual(state);
      }),
      { numRuns: fcRuns(0.8), verbose: 1 },
    );
  });
});
