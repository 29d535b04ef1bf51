/**
 * The module helpers of dist/screen.cjs, checked on the built script itself. Every bundled module
 * that imports the same CommonJS module (React, the JSX runtime, a Node builtin) gets one shared
 * namespace object instead of a fresh one with a getter per export each
 * (scripts/shared-namespaces.mjs): fewer objects made and kept before the first frame. Builtins
 * only a later action uses are required when first read (scripts/lazy-builtins.mjs).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIST } from '../support/bundle-graph';
import { ensureBuilt } from '../support/built-tole';

type ToEsm = (mod: unknown, isNodeMode?: number) => Record<string, unknown>;
type LazyBuiltin = (id: string) => Record<string, unknown>;
let script = '';
let toEsm: ToEsm;
let lazyBuiltin: LazyBuiltin;
let required: string[] = [];

beforeAll(() => {
  ensureBuilt();
  script = readFileSync(join(DIST, 'screen.cjs'), 'latin1');
  // The script's helpers: after the wrapper's first line, before the first bundled module.
  const helpers = script.slice(script.indexOf('\n') + 1, script.search(/\n\/\/ (node_modules|src)\//));
  const nodeRequire = createRequire(import.meta.url);
  const require = (id: string): unknown => {
    required.push(id);
    return nodeRequire(id);
  };
  [toEsm, lazyBuiltin] = new Function('require', `${helpers}\nreturn [__toESM, __toleLazyBuiltin];`)(require) as [
    ToEsm,
    LazyBuiltin,
  ];
});

describe("the screen script's import namespaces", () => {
  it('are made once per CommonJS module and shared by its importers', () => {
    const react = { createElement: () => null, useState: () => [] };
    const first = toEsm(react, 1);
    expect(toEsm(react, 1)).toBe(first);
    expect(first['default']).toBe(react);
    expect(first['useState']).toBe(react.useState);
    expect(Object.keys(first).sort()).toEqual(['createElement', 'default', 'useState']);
  });

  it('still read each export live, and pick up exports added after the first import', () => {
    const mod: Record<string, unknown> = { a: 1 };
    const ns = toEsm(mod, 1);
    mod['a'] = 2;
    expect(ns['a']).toBe(2);
    mod['b'] = 3;
    expect(toEsm(mod, 1)['b']).toBe(3);
  });

  it('keep the two interop modes apart (a transpiled ES module has no added default)', () => {
    const transpiled = { __esModule: true, named: 1 };
    const plain = toEsm(transpiled);
    const node = toEsm(transpiled, 1);
    expect(plain).not.toBe(node);
    expect('default' in plain).toBe(false);
    expect(node['default']).toBe(transpiled);
    expect(toEsm(transpiled)).toBe(plain);
  });

  it('leave null and primitive modules as they were', () => {
    expect(toEsm(null, 1)['default']).toBeNull();
    expect(toEsm(7, 1)['default']).toBe(7);
  });
});

describe("the screen script's builtins for later actions", () => {
  it('are required when a name is first read, and are then the real module', () => {
    required = [];
    const workerThreads = lazyBuiltin('node:worker_threads');
    expect(required).toEqual([]);
    expect(workerThreads['Worker']).toBe(createRequire(import.meta.url)('node:worker_threads').Worker);
    expect(workerThreads['isMainThread']).toBe(true);
    expect(required).toEqual(['node:worker_threads']);
  });

  it('are worker_threads and readline, not imported when their modules are evaluated', () => {
    expect(script).toContain('= __toleLazyBuiltin("node:worker_threads");');
    expect(script).toContain('= __toleLazyBuiltin("node:readline");');
    expect(script).not.toMatch(/require\("node:(worker_threads|readline)"\)/);
  });
});
