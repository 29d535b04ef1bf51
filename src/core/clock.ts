/** Time and randomness come in through these, so that tests can fix them and failures replay. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number;
  /** Nanoseconds since the Unix epoch (used for sortable session ids). */
  nowNs(): bigint;
}

export interface Random {
  /** `n` random bytes. */
  bytes(n: number): Uint8Array;
  /** A float in [0, 1). */
  float(): number;
}

/**
 * `read`, never going back: each value is above the one before (by a nanosecond when `read` gave
 * one not above it). Session ids are made from it, and sub-agents are listed in the order of their
 * ids: the wall clock stepped back (NTP, a resumed VM) must not list a later one first, nor may two
 * ids made in one millisecond (the sub-nanosecond part is the monotonic clock's, which wraps
 * independently of the wall clock's millisecond) come out in the wrong order.
 */
export function monotonicNs(read: () => bigint): () => bigint {
  let last = -1n;
  return () => {
    const now = read();
    last = now > last ? now : last + 1n;
    return last;
  };
}

export const systemClock: Clock = {
  nowMs: () => Date.now(),
  nowNs: monotonicNs(() => BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n)),
};

export function seededRandom(seed: number): Random {
  let state = seed >>> 0 || 0x9e3779b9;
  const next = (): number => {
    // xorshift32: small, deterministic, good enough for jitter and ids in tests.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  return {
    bytes: (n) => Uint8Array.from({ length: n }, () => next() & 0xff),
    float: () => next() / 0x1_0000_0000,
  };
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** `<unix-nanoseconds>-<6 hex>`: sortable by creation time. */
export function newSessionId(clock: Clock, random: Random): string {
  return `${clock.nowNs()}-${hex(random.bytes(3))}`;
}

export function randomHex(random: Random, bytes: number): string {
  return hex(random.bytes(bytes));
}
