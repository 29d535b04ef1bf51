/**
 * The simulator's generators, each from its seed mixed first. xorshift32 (seededRandom) seeded
 * directly with a small number draws a small first number: seeds 1..4095 all drew two faulted
 * lifetimes and 4096..5000 three, and the seeds derived from them (seed + life, seed ^ constant)
 * were as poorly spread. Each stream of a schedule (its schedule, disk, world, each lifetime...)
 * now starts from the seed, the stream and the index run through murmur3's 32-bit finalizer, so
 * that neighbouring seeds and streams start far apart. Hand-written: five lines, and the
 * product's seededRandom stays as it is (its seeds are fixed or come from Math.random).
 */
import { type Random, seededRandom } from '../../src/core/clock';

/** The generators a schedule draws from, one stream each. */
export const STREAMS = {
  schedule: 1,
  disk: 2,
  world: 3,
  lifetime: 4,
  subAgents: 5,
  intruder: 6,
  compaction: 7,
  outsider: 8,
} as const;

/** murmur3's fmix32: every input bit moves about half the output bits. */
function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85eb_ca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2_ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit seed mixed from `parts` (the schedule's seed, a stream, an index), each in turn. */
export function mixedSeed(...parts: readonly number[]): number {
  let h = 0x9e37_79b9;
  for (const part of parts) h = fmix32((h ^ (part >>> 0)) + 0x9e37_79b9);
  return h;
}

/** The generator of stream `stream` (index `index`: a lifetime) of seed `seed`'s schedule. */
export function simRandom(seed: number, stream: number, index = 0): Random {
  return seededRandom(mixedSeed(seed, stream, index));
}
