/**
 * The screen's script starts Yoga's WebAssembly memory at 2 MiB instead of the 16 MiB its module
 * declares (scripts/wasm-initial-memory.mjs: those bytes counted toward V8's old-generation limit
 * and brought a full collection before the first frame). Yoga must still lay out any tree: its
 * memory grows on demand, and a layout needing far more than 2 MiB equals the stock Yoga's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Yoga, { type Node } from 'yoga-layout';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error Yoga's Emscripten loader has no types
import loadYogaImpl from '../../node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js';
import wrapAssembly from '../../node_modules/yoga-layout/dist/src/wrapAssembly.js';
// @ts-expect-error a plain .mjs build helper without types
import { memoryPagesOf, withInitialMemoryPages } from '../../scripts/wasm-initial-memory.mjs';
// @ts-expect-error a plain .mjs build helper without types
import { YOGA_DECLARED_PAGES, YOGA_INITIAL_PAGES } from '../../scripts/yoga-sync-plugin.mjs';
import { ensureBuilt } from '../support/built-tole';
import { DIST } from '../support/bundle-graph';

type YogaApi = typeof Yoga;

/** The WebAssembly API (tole's TypeScript libraries declare no DOM types). */
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => object;
      Instance: new (module: object, imports: unknown) => { exports: unknown };
    };
  }
).WebAssembly;

/** Yoga's module bytes as the package inlines them. */
function stockBytes(): Buffer {
  const loader = readFileSync(
    join('node_modules', 'yoga-layout', 'dist', 'binaries', 'yoga-wasm-base64-esm.js'),
    'utf8',
  );
  return Buffer.from(/"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(loader)![1]!, 'base64');
}

/** The bytes dist/screen.cjs instantiates. */
function builtBytes(): Buffer {
  const screen = readFileSync(join(DIST, 'screen.cjs'), 'latin1');
  return Buffer.from(/var binary = Buffer\.from\("([A-Za-z0-9+/=]+)", "base64"\)/.exec(screen)![1]!, 'base64');
}

/** Yoga from `bytes`, loaded the way the screen's script loads it; also its Emscripten module (its views of the memory). */
async function yogaFrom(bytes: Uint8Array): Promise<{ yoga: YogaApi; heap: () => number }> {
  const module: Record<string, unknown> = {
    instantiateWasm(imports: unknown, receive: (instance: { exports: unknown }) => void) {
      const instance = new wasm.Instance(new wasm.Module(bytes), imports);
      receive(instance);
      return instance.exports;
    },
  };
  await loadYogaImpl(module);
  return { yoga: wrapAssembly(module) as YogaApi, heap: () => (module['HEAPU8'] as Uint8Array).length };
}

/** A column of `rows` rows, each with a fixed-width label and a growing cell of measured text; its layout, sampled. */
function layoutOf(yoga: YogaApi, rows: number): number[][] {
  const root = yoga.Node.create();
  root.setWidth(120);
  root.setFlexDirection(yoga.FLEX_DIRECTION_COLUMN);
  const sampled: Node[] = [];
  for (let i = 0; i < rows; i++) {
    const row = yoga.Node.create();
    row.setFlexDirection(yoga.FLEX_DIRECTION_ROW);
    row.setPadding(yoga.EDGE_LEFT, i % 3);
    const label = yoga.Node.create();
    label.setWidth(10 + (i % 7));
    label.setHeight(1);
    const cell = yoga.Node.create();
    cell.setFlexGrow(1);
    cell.setMeasureFunc((width) => ({ width: Math.min(width, 40 + (i % 50)), height: 1 + (i % 4) }));
    row.insertChild(label, 0);
    row.insertChild(cell, 1);
    root.insertChild(row, i);
    if (i % 997 === 0) sampled.push(row, label, cell);
  }
  root.calculateLayout(undefined, undefined, yoga.DIRECTION_LTR);
  const boxes = sampled.map((n) => [
    n.getComputedLeft(),
    n.getComputedTop(),
    n.getComputedWidth(),
    n.getComputedHeight(),
  ]);
  boxes.push([root.getComputedHeight()]);
  root.freeRecursive();
  return boxes;
}

beforeAll(() => ensureBuilt(), 120_000);

describe("Yoga's memory in the screen's script", () => {
  it('starts at 32 pages (2 MiB) where the module declares 256, with the same maximum', () => {
    expect(memoryPagesOf(stockBytes())).toEqual({ initial: YOGA_DECLARED_PAGES, maximum: 32768 });
    expect(YOGA_INITIAL_PAGES).toBe(32);
    expect(memoryPagesOf(builtBytes())).toEqual({ initial: YOGA_INITIAL_PAGES, maximum: 32768 });
    // Only those bytes differ from the module Yoga ships.
    const stock = stockBytes();
    const built = builtBytes();
    expect(built.length).toBe(stock.length);
    expect([...built].filter((byte, i) => byte !== stock[i]).length).toBeLessThanOrEqual(2);
  });

  it('grows as Yoga needs and lays out 5,000 rows (15,000 nodes, ~9 MiB) as the stock Yoga does', async () => {
    const small = await yogaFrom(builtBytes());
    expect(small.heap()).toBe(YOGA_INITIAL_PAGES * 65536);
    const rows = 5_000;
    const laidOut = layoutOf(small.yoga, rows);
    // Grown several times past its first 2 MiB.
    expect(small.heap()).toBeGreaterThan(4 * YOGA_INITIAL_PAGES * 65536);
    expect(laidOut).toEqual(layoutOf(Yoga, rows));
  });

  it('refuses a module whose memory is not the one it was checked against', () => {
    expect(() => withInitialMemoryPages(stockBytes(), 128, 32)).toThrow(/expected one memory of 128 pages/);
    expect(() => withInitialMemoryPages(Buffer.from('not wasm'), 256, 32)).toThrow(/not a WebAssembly module/);
  });
});
