import type { RegisterRecord } from './register-record';
import { familyOf } from './namespaces';

export interface RegisterCell {
  readonly value: unknown;
  /** Seq of the record that set it. */
  readonly seq: number;
  /** Serialised size of that record, for the dead-bytes estimate of storage compaction. */
  readonly bytes: number;
}

/** Replayed register cells, namespace -> key -> cell. */
export class RegisterState {
  private readonly cells = new Map<string, Map<string, RegisterCell>>();
  /** Bytes of register records that a later record made dead. */
  deadBytes = 0;

  /** Returns a reason when the record is not a valid register record. */
  static invalid(record: RegisterRecord): string | null {
    if (typeof record.namespace !== 'string' || familyOf(record.namespace) === null)
      return `unknown register namespace "${String(record.namespace)}"`;
    if (typeof record.key !== 'string' || record.key === '') return 'register key must be a non-empty string';
    if (record.op !== 'set' && record.op !== 'delete')
      return `unknown register op "${String((record as { op: unknown }).op)}"`;
    return null;
  }

  /**
   * About the bytes a register record takes inside a transaction line, for the dead-bytes
   * estimate. Cheap for the common string values (lane leaves); objects are measured.
   */
  static estimateBytes(record: RegisterRecord): number {
    const overhead = 72 + record.namespace.length + record.key.length;
    if (record.op === 'delete') return overhead;
    const value = record.value;
    if (typeof value === 'string') return overhead + value.length + 2;
    if (typeof value === 'object' && value !== null) return overhead + jsonLengthOf(value);
    return overhead + 16;
  }

  apply(record: RegisterRecord, bytes: number): void {
    let ns = this.cells.get(record.namespace);
    const previous = ns?.get(record.key);
    if (previous) this.deadBytes += previous.bytes;
    if (record.op === 'delete') {
      ns?.delete(record.key);
      this.deadBytes += bytes;
      return;
    }
    if (!ns) {
      ns = new Map();
      this.cells.set(record.namespace, ns);
    }
    ns.set(record.key, { value: record.value, seq: record.seq, bytes });
  }

  /** Puts a cell back as a saved index holds it (the namespace made, empty, when `key` is null). */
  restore(namespace: string, key: string | null, cell: RegisterCell | null): void {
    let ns = this.cells.get(namespace);
    if (!ns) {
      ns = new Map();
      this.cells.set(namespace, ns);
    }
    if (key !== null && cell !== null) ns.set(key, cell);
  }

  get<T = unknown>(namespace: string, key: string): T | undefined {
    return this.cells.get(namespace)?.get(key)?.value as T | undefined;
  }

  cell(namespace: string, key: string): RegisterCell | undefined {
    return this.cells.get(namespace)?.get(key);
  }

  /** Cells of one namespace, in insertion order. */
  entries(namespace: string): [string, RegisterCell][] {
    return [...(this.cells.get(namespace) ?? new Map<string, RegisterCell>()).entries()];
  }

  namespaces(): string[] {
    return [...this.cells.keys()];
  }

  liveBytes(): number {
    let total = 0;
    for (const ns of this.cells.values()) for (const cell of ns.values()) total += cell.bytes;
    return total;
  }
}

/**
 * About the length of an object value as JSON. A flat object of strings and scalars (a lane head,
 * a machine state: one in nearly every commit) is measured key by key, since serialising it
 * for every commit was a tenth of a large replay; anything deeper is serialised.
 */
function jsonLengthOf(value: object): number {
  if (Array.isArray(value)) return JSON.stringify(value)?.length ?? 0;
  let length = 2;
  // for-in over own keys (a JSON value's prototype is Object's): no entry arrays made per commit.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === 'string') length += key.length + v.length + 6;
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) length += key.length + 20;
    else if (v !== undefined) return JSON.stringify(value)?.length ?? 0;
  }
  return length;
}
