/**
 * A read-only array whose items are made when first read: a path of 100,000 entries taken in
 * from a saved index, of which the first frame reads a few dozen (the transcript's last lines, a
 * binary search by seq), is not built whole before that frame.
 *
 * It reads as an array to what tole does with a path (`Array.isArray`, `length`, indexing,
 * iteration, `slice`, `map`, spreading, JSON, deep equality), though not to `structuredClone` or
 * `util.inspect`: a Proxy whose target is an array of `length` places, each filled by `make(i)`
 * (once) the first time anything looks at that index. Every trap fills what it is asked about
 * before answering from the target, so the target always holds what the list reports. Writes are
 * refused, and the list is typed read-only so that no caller tries one.
 */
const NOT_MADE: unique symbol = Symbol('not made');
/** Array methods that read every item (those that may stop early read item by item, through the traps). */
const READS_EVERY_ITEM = new Set([
  'concat',
  'filter',
  'flat',
  'flatMap',
  'forEach',
  'join',
  'map',
  'reduce',
  'reduceRight',
  'toReversed',
  'toSorted',
]);

export function lazyList<T>(length: number, make: (index: number) => T): readonly T[] {
  // Pushed one by one, the target stays a packed array (one of `length` holes would be a dictionary).
  const target: unknown[] = [];
  for (let i = 0; i < length; i++) target.push(NOT_MADE);
  let filled = 0;
  const fill = (i: number): void => {
    if (target[i] === NOT_MADE) {
      target[i] = make(i);
      filled++;
    }
  };
  const fillAll = (): void => {
    if (filled === length) return;
    for (let i = 0; i < length; i++) fill(i);
  };
  /** The index a property key names (canonical decimal, below `length`), or -1: read digit by digit, no string made. */
  const indexOf = (key: string | symbol): number => {
    if (typeof key !== 'string') return -1;
    const n = key.length;
    if (n === 0 || n > 15 || (n > 1 && key.charCodeAt(0) === 0x30)) return -1;
    let i = 0;
    for (let k = 0; k < n; k++) {
      const digit = key.charCodeAt(k) - 0x30;
      if (digit < 0 || digit > 9) return -1;
      i = i * 10 + digit;
    }
    return i < length ? i : -1;
  };
  // Methods that read every item (and slice, the items it copies) run on the target once it holds
  // them: a pass over 100,000 items then costs no trap per item.
  const slice = (start?: number, end?: number): T[] => {
    const from = relative(start, 0);
    const to = relative(end, length);
    for (let i = from; i < to; i++) fill(i);
    return (target as T[]).slice(from, to);
  };
  const relative = (at: number | undefined, otherwise: number): number => {
    if (at === undefined) return otherwise;
    const whole = Math.trunc(Number(at)) || 0;
    return whole < 0 ? Math.max(length + whole, 0) : Math.min(whole, length);
  };
  const list = new Proxy(target as T[], {
    get(t, key, receiver) {
      const i = indexOf(key);
      if (i >= 0) {
        fill(i);
        return t[i];
      }
      if (key === 'slice') return slice;
      if (typeof key === 'string' && READS_EVERY_ITEM.has(key)) {
        const method = Reflect.get(t, key) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          fillAll();
          return method.apply(t, args);
        };
      }
      return Reflect.get(t, key, receiver);
    },
    has(t, key) {
      return indexOf(key) >= 0 || Reflect.has(t, key);
    },
    getOwnPropertyDescriptor(t, key) {
      const i = indexOf(key);
      if (i >= 0) fill(i);
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
    ownKeys(t) {
      fillAll();
      return Reflect.ownKeys(t);
    },
    set() {
      return false;
    },
    defineProperty() {
      return false;
    },
    deleteProperty() {
      return false;
    },
  });
  wholes.set(list, () => {
    fillAll();
    return target;
  });
  return list;
}

/** Each lazy list's target, filled whole (see wholeList). */
const wholes = new WeakMap<object, () => unknown[]>();

/**
 * `list` as a plain array with every item made: for a reader that goes through all of it by
 * index (a trap per read costs a few hundred nanoseconds; a pass over 100,000 items on the plain
 * array costs almost nothing). Any other array is given back as it is.
 */
export function wholeList<T>(list: readonly T[]): readonly T[] {
  const whole = wholes.get(list);
  return whole === undefined ? list : (whole() as T[]);
}
