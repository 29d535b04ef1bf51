/**
 * Where each entry id sits in the order added. tole names its entries `e_<n>` with n counting up
 * (SessionStore's newEntryId), so those places are kept in a typed array by n: no map entry, no
 * string hashed, nothing for the collector to trace, per entry. Any other id (and an `e_<n>` with
 * an n far past the entries there are) goes in a map, as every id did before.
 */

/** Numbers at most this large are looked up in the typed array (and only up to LIMIT_PER_ID per id). */
const MAX_NUMBER = 0x3fffffff;
/** The typed array grows to at most this many slots per id held (plus FREE_SLOTS): a few wild numbers cost no memory. */
const LIMIT_PER_ID = 8;
const FREE_SLOTS = 1 << 16;

/**
 * n when `id` is `e_<n>` in canonical decimal (no sign, no leading zero) and 1 <= n <= MAX_NUMBER,
 * else -1. For such an id, `Number(id.slice(2))` is n.
 */
export function entryNumber(id: string): number {
  const length = id.length;
  if (length < 3 || length > 12 || id.charCodeAt(0) !== 0x65 || id.charCodeAt(1) !== 0x5f) return -1;
  let n = 0;
  for (let i = 2; i < length; i++) {
    const digit = id.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9 || (digit === 0 && i === 2)) return -1;
    n = n * 10 + digit;
  }
  return n <= MAX_NUMBER ? n : -1;
}

export class IdPlaces {
  /** Place + 1 of `e_<n>` at n (0: not held here). */
  private byNumber = new Int32Array(1024);
  /** Every other id's place (and numbered ids too far out for the array). */
  private readonly others = new Map<string, number>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: string): number | undefined {
    const n = entryNumber(id);
    if (n >= 0 && n < this.byNumber.length) {
      const slot = this.byNumber[n]!;
      if (slot !== 0) return slot - 1;
    }
    return this.others.size === 0 ? undefined : this.others.get(id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** Records `id` at `place` when it is new (true); a held id keeps its place (false). */
  add(id: string, place: number): boolean {
    const n = entryNumber(id);
    if (n >= 0 && this.fits(n)) {
      if (this.byNumber[n] !== 0 || (this.others.size > 0 && this.others.has(id))) return false;
      this.byNumber[n] = place + 1;
    } else {
      if (this.others.has(id)) return false;
      this.others.set(id, place);
    }
    this.count++;
    return true;
  }

  /** True when n has a slot in the typed array (grown for it when that stays within the limits). */
  private fits(n: number): boolean {
    const slots = this.byNumber.length;
    if (n < slots) return true;
    const limit = (this.count + 1) * LIMIT_PER_ID + FREE_SLOTS;
    if (n >= limit) return false;
    const grown = new Int32Array(Math.min(limit, Math.max(n + 1, slots * 2)));
    grown.set(this.byNumber);
    this.byNumber = grown;
    return true;
  }
}
