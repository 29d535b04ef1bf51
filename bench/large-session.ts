/**
 * The screen's work on a 100,000-entry session that the test suite checks for correctness only
 * (test/tui/large-sessions-stay-fast.test.tsx): flattening the tree into its rows, and scrolling
 * the transcript 50 pages up from the end. Baselines from the same run: for the rows, one pass
 * that copies the tree's entries into an array (the least a flattening can do); for the scroll,
 * laying out the first window once, times the 50 pages (what each page would cost if it were as
 * cheap as the first). Figures are CPU time, the median of ROUNDS (the machine is shared).
 * Run alone with `node --import tsx bench/large-session.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { seededRandom, systemClock } from '../src/core/clock';
import { SessionStore } from '../src/core/storage/session-store';
import { LineCache, scrollTranscript, transcriptWindow } from '../src/tui/transcript/transcript-window';
import { TreeRowIndex } from '../src/tui/tree/tree-rows';
import { writeSession } from './startup';
import { formatRows, type Row } from './storage';

const ENTRIES = 100_000;
const ROUNDS = 5;
const PAGES = 50;

function cpuMs(work: () => void): number {
  const started = process.cpuUsage();
  work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

export async function runLargeSessionBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tole-bench-large-'));
  try {
    const store = SessionStore.open(writeSession(dir, ENTRIES), {
      clock: systemClock,
      random: seededRandom(1),
      readOnly: true,
    });
    const leaf = [...store.tree.all()].at(-1)!.id;
    const path = store.tree.pathTo(leaf);
    const rows: number[] = [];
    const copies: number[] = [];
    const scrolls: number[] = [];
    const firsts: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      copies.push(cpuMs(() => void [...store.tree.all()]));
      rows.push(cpuMs(() => void new TreeRowIndex(store.tree).snapshot()));
      firsts.push(cpuMs(() => void transcriptWindow(path, [], new LineCache(), 80, 30, { kind: 'follow' })));
      scrolls.push(
        cpuMs(() => {
          const cache = new LineCache();
          let window = transcriptWindow(path, [], cache, 80, 30, { kind: 'follow' });
          for (let i = 0; i < PAGES; i++) {
            const anchor = scrollTranscript(window, -28, path, [], cache, 80, 30);
            window = transcriptWindow(path, [], cache, 80, 30, anchor);
          }
        }),
      );
    }
    store.close();
    const treeRows = median(rows);
    const copy = median(copies);
    const scroll = median(scrolls);
    const pagesAsFirst = median(firsts) * PAGES;
    return [
      {
        name: 'tree rows of a 100k-entry session (baseline: copying its entries into an array)',
        tole: treeRows,
        baseline: copy,
        unit: 'ms CPU',
        ratio: treeRows / copy,
      },
      {
        name: `transcript scrolled ${PAGES} pages up, 100k entries (baseline: ${PAGES} x the first window)`,
        tole: scroll,
        baseline: pagesAsFirst,
        unit: 'ms CPU',
        ratio: scroll / pagesAsFirst,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${formatRows(await runLargeSessionBench())}\n`);
  process.exit(0);
}
