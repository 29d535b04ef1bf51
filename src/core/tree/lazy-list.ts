/**
 * A read-only array whose items are made when first read: a path of 100,000 entries taken in
 * from a saved index, of which the first frame reads a few dozen (the transcript's last lines, a
 * binary search by seq), is not built whole before that frame.
 *
 * It is a real array to every reader (`Array.isArray`, `length`, indexing, iteration, `slice`,
 * `map`, spreading, JSON, deep equality): a Proxy whose target is an array of `length` places,
 * each filled by `make(i)` (once) the first time anything looks at that index. Every trap fills
 * what it is asked about before answering from the target, so the target always holds what the
 * list reports. Writes are refused (the list is read-only).
 */
const NOT_MADE: unique symbol = Symbol('not made');

export function lazyList<T>(length: number, make: (index: number) => T): T[] {
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
  /** The index a property key names, or -1. */
  const indexOf = (key: string | symbol): number => {
    if (typeof key !== 'string') return -1;
    const c = key.charCodeAt(0);
    if (c < 0x30 || c > 0x39) return -1;
    const i = Number(key);
    return Number.isInteger(i) && i < length && String(i) === key ? i : -1;
  };
  return new Proxy(target as T[], {
    get(t, key, receiver) {
      const i = indexOf(key);
      if (i >= 0) {
        fill(i);
        return t[i];
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
}
