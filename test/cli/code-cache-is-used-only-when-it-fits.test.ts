/**
 * tole's compile cache for the full-screen session's script: used only for the very source, tole
 * version and Node it was made for, and only when whole; anything else (stale, damaged, not a
 * cache) reads as none and is replaced by a fresh one. A cache that cannot be written costs
 * nothing but the time.
 */
import { chmodSync, chownSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheDir, codeCacheFile, codeCacheKey, readCodeCache, writeCodeCache } from '../../src/cli/code-cache';
import { loadScript } from '../../src/cli/screen-loader';
import { missingModuleMessage } from '../../src/core/missing-module';
import { tempDirForTest } from '../support/after-the-test';

let dir: string;
beforeEach(() => {
  dir = tempDirForTest('tole-code-cache-');
});
// A test may leave the directory unwritable; its removal when the test ends needs it writable again.
afterEach(() => {
  chmodSync(dir, 0o700);
});

/** A script as the build wraps dist/screen.cjs, with enough functions that V8's cache of it is not trivial. */
function writeScript(name: string, answer: number): string {
  const file = join(dir, name);
  const helpers = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
  writeFileSync(
    file,
    `(function (exports, require, module, __filename, __dirname, TOLE_IMPORT_META_URL) {\n${helpers}\nmodule.exports = { answer: () => f0(${answer}), file: __filename, url: TOLE_IMPORT_META_URL, req: typeof require };\n})`,
  );
  return file;
}

describe('the code cache file', () => {
  const source = Buffer.from('module.exports = 1;\n');
  const key = codeCacheKey(source, '1.2.3');
  const data = Buffer.from('not really V8 code, but bytes all the same');

  it('reads back what was written, for the same key', () => {
    const file = codeCacheFile(dir, 'screen', key);
    expect(writeCodeCache(file, key, data)).toBe(true);
    expect(readCodeCache(file, key)?.equals(data)).toBe(true);
  });

  it('is no cache for another tole version, Node, or source', () => {
    const file = codeCacheFile(dir, 'screen', key);
    writeCodeCache(file, key, data);
    expect(readCodeCache(file, { ...key, tole: '1.2.4' })).toBeNull();
    expect(readCodeCache(file, { ...key, node: 'v99.0.0' })).toBeNull();
    expect(readCodeCache(file, { ...key, v8: '0.0' })).toBeNull();
    expect(readCodeCache(file, codeCacheKey(Buffer.from('module.exports = 2;\n'), '1.2.3'))).toBeNull();
  });

  it('is no cache when cut short, damaged, empty, or not a cache at all', () => {
    const file = codeCacheFile(dir, 'screen', key);
    writeCodeCache(file, key, data);
    const whole = readFileSync(file);
    const cases: Buffer[] = [
      whole.subarray(0, whole.length - 3),
      Buffer.concat([whole, Buffer.from('x')]),
      Buffer.from(whole).fill(0x41, whole.length - 5, whole.length - 4),
      Buffer.from(whole.toString('utf8').replace('"dataCrc":', '"dataCrc":9')),
      whole.subarray(0, whole.indexOf(10) + 1),
      Buffer.alloc(0),
      Buffer.from('\n\n\n'),
      Buffer.from('null\nabc'),
      Buffer.alloc(10_000, 0x7b),
    ];
    for (const bytes of cases) {
      writeFileSync(file, bytes);
      expect(readCodeCache(file, key), JSON.stringify(bytes.subarray(0, 40).toString())).toBeNull();
    }
    rmSync(file);
    expect(readCodeCache(file, key)).toBeNull();
  });

  it('is no cache when others may write it', () => {
    const file = codeCacheFile(dir, 'screen', key);
    writeCodeCache(file, key, data);
    chmodSync(file, 0o666);
    expect(readCodeCache(file, key)).toBeNull();
    chmodSync(file, 0o620);
    expect(readCodeCache(file, key)).toBeNull();
    chmodSync(file, 0o600);
    expect(readCodeCache(file, key)?.equals(data)).toBe(true);
  });

  it('is neither read from nor written to a folder others may write in or another user owns', () => {
    const folder = join(dir, 'tole');
    const file = codeCacheFile(folder, 'headless', key);
    expect(writeCodeCache(file, key, data)).toBe(true);
    chmodSync(folder, 0o770);
    expect(readCodeCache(file, key)).toBeNull();
    expect(writeCodeCache(codeCacheFile(folder, 'headless', codeCacheKey(Buffer.from('x'), '1')), key, data)).toBe(
      false,
    );
    expect(readdirSync(folder)).toEqual([basename(file)]);
    chmodSync(folder, 0o700);
    expect(readCodeCache(file, key)?.equals(data)).toBe(true);
    // Only root can give a folder away: the case is there where the tests run as root.
    if (process.getuid?.() === 0) {
      chownSync(folder, 65534, 65534);
      expect(readCodeCache(file, key)).toBeNull();
      expect(writeCodeCache(file, key, Buffer.from('other bytes'))).toBe(false);
      chownSync(folder, 0, 0);
      expect(readCodeCache(file, key)?.equals(data)).toBe(true);
    }
  });

  it('is not written where it cannot be, and that is no error', () => {
    writeFileSync(join(dir, 'a-file'), '');
    expect(writeCodeCache(join(dir, 'a-file', 'screen-00000000.v8cache'), key, data)).toBe(false);
    chmodSync(dir, 0o500);
    // root writes anywhere: then this one is written, and the point is only that nothing throws.
    const written = writeCodeCache(join(dir, 'screen-00000000.v8cache'), key, data);
    if (process.getuid?.() !== 0) expect(written).toBe(false);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps the caches of the three most recent other builds, and leaves other files alone', () => {
    const names: string[] = [];
    for (const [i, source] of ['one', 'two', 'three', 'four', 'five'].entries()) {
      const other = codeCacheKey(Buffer.from(source), '1.2.2');
      const file = codeCacheFile(dir, 'screen', other);
      writeCodeCache(file, other, data);
      utimesSync(file, 1_000 + i, 1_000 + i);
      names.push(basename(file));
    }
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    writeCodeCache(codeCacheFile(dir, 'screen', key), key, data);
    expect(readdirSync(dir).sort()).toEqual(
      ['notes.txt', basename(codeCacheFile(dir, 'screen', key)), ...names.slice(2)].sort(),
    );
  });

  it("never counts another script's caches (screen-later beside screen) as older builds of its own", () => {
    const later: string[] = [];
    for (const [i, source] of ['a', 'b', 'c', 'd'].entries()) {
      const other = codeCacheKey(Buffer.from(source), '1.2.2');
      const file = codeCacheFile(dir, 'screen-later', other);
      writeCodeCache(file, other, data);
      utimesSync(file, 2_000 + i, 2_000 + i);
      later.push(basename(file));
    }
    writeCodeCache(codeCacheFile(dir, 'screen', key), key, data);
    expect(readdirSync(dir).sort()).toEqual([basename(codeCacheFile(dir, 'screen', key)), ...later].sort());
  });

  it('lives under the user cache folder, never the workspace', () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' })).toBe('/x/cache/tole');
    expect(codeCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/tole');
  });
});

describe('a script loaded with the code cache', () => {
  it('compiles from source at first, then from the cache it saved', () => {
    const file = writeScript('screen.cjs', 41);
    const cache = join(dir, 'cache');
    const first = loadScript(file, cache, '1.0.0');
    expect(first.fromCache).toBe(false);
    const exports = first.exports as { answer(): number; file: string; url: string; req: string };
    expect(exports.answer()).toBe(41);
    expect(exports.file).toBe(file);
    expect(exports.url).toBe(`file://${file}`);
    expect(exports.req).toBe('function');
    expect(first.saveCache()).toBe(true);
    const second = loadScript(file, cache, '1.0.0');
    expect(second.fromCache).toBe(true);
    expect((second.exports as { answer(): number }).answer()).toBe(41);
  });

  it('compiles from source when the cache is damaged, stale, or for another version, and a fresh one replaces it', () => {
    const file = writeScript('screen.cjs', 1);
    const cache = join(dir, 'cache');
    loadScript(file, cache, '1.0.0').saveCache();
    const [name] = readdirSync(cache);
    const cacheFile = join(cache, name!);
    const whole = readFileSync(cacheFile);
    // A byte of V8's code flipped.
    writeFileSync(
      cacheFile,
      Buffer.from(whole).fill(whole[whole.length - 100]! ^ 0xff, whole.length - 100, whole.length - 99),
    );
    const damaged = loadScript(file, cache, '1.0.0');
    expect(damaged.fromCache).toBe(false);
    expect((damaged.exports as { answer(): number }).answer()).toBe(1);
    expect(damaged.saveCache()).toBe(true);
    expect(loadScript(file, cache, '1.0.0').fromCache).toBe(true);
    // Another tole version: compiled afresh.
    expect(loadScript(file, cache, '1.0.1').fromCache).toBe(false);
    // The script changed, to one of the very same length: its code is compiled, not the old one taken.
    writeScript('screen.cjs', 2);
    const changed = loadScript(file, cache, '1.0.0');
    expect(changed.fromCache).toBe(false);
    expect((changed.exports as { answer(): number }).answer()).toBe(2);
  });

  it('still runs when the cache folder cannot be written', () => {
    const file = writeScript('screen.cjs', 7);
    writeFileSync(join(dir, 'not-a-folder'), '');
    const loaded = loadScript(file, join(dir, 'not-a-folder', 'tole'), '1.0.0');
    expect((loaded.exports as { answer(): number }).answer()).toBe(7);
    expect(loaded.saveCache()).toBe(false);
  });

  it('that is missing is told as an incomplete install', () => {
    let thrown: unknown;
    try {
      loadScript(join(dir, 'screen.cjs'), join(dir, 'cache'), '1.0.0');
    } catch (error) {
      thrown = error;
    }
    expect(missingModuleMessage(thrown)).toMatch(/^this install of tole is incomplete: .*screen\.cjs/);
  });
});
