import { createHash } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { fsyncDirectory, nodeFileOps } from '../storage/file-ops';
import { writeDurably } from './loose-object';

/**
 * Writes a few new objects into a git directory as one pack with its index, as git's own
 * `pack-objects` would leave them (gitformat-pack: version 2, every object whole, no deltas; an
 * index of version 2), and makes both durable before it returns: each file fsynced under a
 * temporary name (`tmp_pack_…`, `tmp_idx_…`, git's prefixes, which git's prune removes when a
 * crash leaves one), renamed into place, the pack before its index (git sees a pack only through
 * its index, so no reader ever finds half of one), then the folder that names them fsynced.
 *
 * A known-path checkpoint's objects (a blob, the trees on its path, the commit) go so: three
 * fsyncs for all of them, where a loose object costs two each (its bytes, its folder). tole
 * writes the format itself: a pack library writes packs of objects it reads from a repository,
 * that is, objects already written loose, which is the cost this saves; the format of whole
 * objects is a header, deflated bodies and SHA sums. The repack policy merges these small packs
 * (repack-policy.ts).
 */
export interface PackObject {
  readonly type: 'commit' | 'tree' | 'blob';
  readonly body: Buffer;
}

/** Writes `objects` (duplicates once) into `gitDir` as one durable pack; returns their ids in the order given. */
export function writeObjectPack(gitDir: string, objects: readonly PackObject[], idLength: number): string[] {
  const hash = HASHES[idLength] ?? unknownHash(idLength);
  const ids = objects.map((o) => objectId(o, hash));
  const unique = new Map<string, PackObject>();
  objects.forEach((o, i) => unique.set(ids[i]!, o));
  const entries: { id: string; offset: number; crc: number }[] = [];
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(unique.size, 8);
  const parts: Buffer[] = [header];
  let offset = header.length;
  for (const [id, object] of unique) {
    const packed = Buffer.concat([
      objectHeader(TYPES[object.type], object.body.length),
      // At git's loose compression level, the fastest (a repack deflates them again).
      deflateSync(object.body, { level: 1 }),
    ]);
    entries.push({ id, offset, crc: crc32(packed) });
    parts.push(packed);
    offset += packed.length;
  }
  const packSum = createHash(hash).update(Buffer.concat(parts)).digest();
  parts.push(packSum);
  const name = packSum.toString('hex');
  const folder = join(gitDir, 'objects', 'pack');
  const tempPack = join(folder, `tmp_pack_tole_${process.pid}_${++written}`);
  const tempIndex = join(folder, `tmp_idx_tole_${process.pid}_${written}`);
  try {
    writeDurably(tempPack, Buffer.concat(parts));
    writeDurably(tempIndex, packIndex(entries, packSum, hash));
    renameSync(tempPack, join(folder, `pack-${name}.pack`));
    renameSync(tempIndex, join(folder, `pack-${name}.idx`));
  } finally {
    rmSync(tempPack, { force: true });
    rmSync(tempIndex, { force: true });
  }
  fsyncDirectory(nodeFileOps, folder);
  return ids;
}

/** An object's id: the hash of its loose form's header and body, as git computes it. */
export function objectId(object: PackObject, hash: string): string {
  return createHash(hash).update(`${object.type} ${object.body.length}\0`).update(object.body).digest('hex');
}

/** An object's header in a pack: its type and size, seven bits a byte after the first four, the top bit saying more follow. */
function objectHeader(type: number, size: number): Buffer {
  const bytes = [(type << 4) | (size & 0x0f)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes[bytes.length - 1]! |= 0x80;
    bytes.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return Buffer.from(bytes);
}

/**
 * The pack's index, version 2: the magic and version, a fan-out of 256 counts (objects whose id's
 * first byte is at most each), the ids in order, each object's CRC-32 and offset in that order,
 * the pack's sum and the index's own. A pack tole writes is far below 2 GiB: no large offsets.
 */
function packIndex(entries: { id: string; offset: number; crc: number }[], packSum: Buffer, hash: string): Buffer {
  const sorted = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const head = Buffer.alloc(8 + 256 * 4);
  head.writeUInt32BE(0xff744f63, 0);
  head.writeUInt32BE(2, 4);
  for (const { id } of sorted)
    for (let byte = Number.parseInt(id.slice(0, 2), 16); byte < 256; byte++)
      head.writeUInt32BE(head.readUInt32BE(8 + byte * 4) + 1, 8 + byte * 4);
  const crcs = Buffer.alloc(sorted.length * 4);
  const offsets = Buffer.alloc(sorted.length * 4);
  sorted.forEach((e, i) => {
    crcs.writeUInt32BE(e.crc, i * 4);
    offsets.writeUInt32BE(e.offset, i * 4);
  });
  const body = Buffer.concat([head, ...sorted.map((e) => Buffer.from(e.id, 'hex')), crcs, offsets, packSum]);
  return Buffer.concat([body, createHash(hash).update(body).digest()]);
}

const TYPES = { commit: 1, tree: 2, blob: 3 } as const;

/** The hash of a directory whose object ids have this many hex digits. */
const HASHES: Readonly<Record<number, string>> = { 40: 'sha1', 64: 'sha256' };

function unknownHash(idLength: number): never {
  throw new Error(`no git object hash has ids of ${idLength} hex digits`);
}

/** Packs written by this process, for their temporary names. */
let written = 0;
