/**
 * Would splitting the first open's column scan between two threads pay on this machine?
 * `node --import tsx bench/scan-halves.ts [ROUNDS]` (under `/work/bin/slots-both` on the shared
 * machine) times, in one process, each round in this order: the column scan of bench/startup.ts's
 * 100,000-entry session (`whole`), the worker's check of the same file's lines (frame, CRC chain,
 * strict JSON: `check`, as verify-aside.ts runs it), the scan of a 50,000-entry session (`half`,
 * the work of one half), and two such half scans at once, one here and one on a worker, each over
 * its own copy of the file (`pair`: the wall time until both are done; memory traffic as two
 * halves of one file would make it). A split pays only if `pair` stays near `half`; and in the open
 * the worker that would take a half also runs `check`, so the open's scan and check end together
 * at best at (whole + check) / 2 instead of max(whole, check).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { scanColumns } from '../src/core/storage/column-scan';
import { jsonSkipper } from '../src/core/storage/json-skip';
import { headerCrc } from '../src/core/storage/line-codec';
import { firstBadLine } from '../src/core/storage/verify-aside';

/** A session file in a shared buffer, as the open holds it. */
function shared(path: string): Buffer {
  const disk = readFileSync(path);
  const bytes = Buffer.from(new SharedArrayBuffer(disk.length));
  disk.copy(bytes);
  return bytes;
}

/** The scan of the whole file, in ms; throws if it did not take every line. */
function scanMs(bytes: Buffer): number {
  const headerEnd = bytes.indexOf(0x0a);
  const start = performance.now();
  const scanned = scanColumns(bytes, headerEnd + 1, headerCrc(bytes.subarray(0, headerEnd)), (from) =>
    bytes.indexOf(0x0a, from),
  );
  const ms = performance.now() - start;
  if (scanned?.bytes !== bytes.length) throw new Error('the scan stopped before the end');
  return ms;
}

function checkMs(bytes: Buffer): number {
  const headerEnd = bytes.indexOf(0x0a);
  const seed = headerCrc(bytes.subarray(0, headerEnd));
  const start = performance.now();
  const bad = firstBadLine(bytes, headerEnd + 1, bytes.length, seed, crc32, jsonSkipper(false));
  const ms = performance.now() - start;
  if (bad !== -1) throw new Error(`line ${bad} refused`);
  return ms;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

if (!isMainThread) {
  // The worker: scans its copy of the half file each time it is asked.
  const bytes = Buffer.from(workerData.half as SharedArrayBuffer);
  parentPort!.on('message', () => parentPort!.postMessage(scanMs(bytes)));
  parentPort!.postMessage(scanMs(bytes));
} else {
  const { writeSession } = await import('./startup');
  const rounds = Number(process.argv[2] ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'tole-scan-halves-'));
  try {
    const whole = shared(writeSession(dir, 100_000));
    const halfPath = writeSession(dir, 50_000);
    const half = shared(halfPath);
    const otherHalf = shared(halfPath);
    // The worker loads this file through tsx, as the main thread did.
    const tsx = pathToFileURL(
      join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
    );
    const worker = new Worker(
      `import(${JSON.stringify(tsx.href)}).then(({ tsImport }) => tsImport(${JSON.stringify(import.meta.url)}, ${JSON.stringify(import.meta.url)}));`,
      { eval: true, workerData: { half: otherHalf.buffer } },
    );
    const fromWorker = (): Promise<number> => new Promise((resolve) => worker.once('message', resolve));
    await fromWorker();
    const runs = { whole: [] as number[], check: [] as number[], half: [] as number[], pair: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      runs.whole.push(scanMs(whole));
      runs.check.push(checkMs(whole));
      runs.half.push(scanMs(half));
      const start = performance.now();
      const other = fromWorker();
      worker.postMessage('scan');
      scanMs(half);
      await other;
      runs.pair.push(performance.now() - start);
    }
    await worker.terminate();
    for (const [name, list] of Object.entries(runs))
      process.stdout.write(
        `${name}: ${list.map((ms) => Math.round(ms)).join(' / ')} (median ${Math.round(median(list))}) ms\n`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}
