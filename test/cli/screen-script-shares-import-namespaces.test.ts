/**
 * dist/screen.cjs gives every bundled module that imports the same CommonJS module (React, the
 * JSX runtime, a Node builtin) one shared namespace object instead of a fresh one with a getter
 * per export each (scripts/shared-namespaces.mjs): fewer objects made and kept before the first
 * frame. Checked on the helpers of the built script itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIST } from '../support/bundle-graph';
import { ensureBuilt } from '../support/built-tole';

type ToEsm = (mod: unknown, isNodeMode?: number) => Record<string, unknown>;
let toEsm: ToEsm;

beforeAll(() => {
  ensureBuilt();
  const script = readFileSync(join(DIST, 'screen.cjs'), 'latin1');
  // The script's helpers: after the wrapper's first line, before the first bundled module.
  const helpers = script.slice(script.indexOf('\n') + 1, script.search(/\n\/\/ (node_modules|src)\//));
  toEsm = new Function(`${helpers}\nreturn __toESM;`)() as ToEsm;
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
