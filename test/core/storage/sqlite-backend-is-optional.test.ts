import { describe, expect, it } from 'vitest';
import { loadSqliteDriver, SQLITE_PACKAGE } from '../../../src/core/storage/sqlite-driver';

const notInstalled = (): never => {
  throw Object.assign(new Error("Cannot find module 'better-sqlite3'\nRequire stack:\n- /x/tole.js"), {
    code: 'MODULE_NOT_FOUND',
  });
};

describe('the SQLite backend is optional', () => {
  it('says how to enable it when better-sqlite3 is not installed', () => {
    expect(SQLITE_PACKAGE).toBe('better-sqlite3@12.11.1');
    expect(() => loadSqliteDriver(notInstalled)).toThrowError(
      expect.objectContaining({ name: 'StorageError', kind: 'unavailable' }),
    );
    expect(() => loadSqliteDriver(notInstalled)).toThrowError(
      'the SQLite session backend needs better-sqlite3, and better-sqlite3 is not installed: enable it with `npm install better-sqlite3@12.11.1` where tole is installed, or use the default JSONL backend (--storage jsonl)',
    );
  });

  it('names the cause when it is installed but its native addon does not load', () => {
    const wrongAbi = (): never => {
      throw new Error(
        'The module was compiled against a different Node.js version using NODE_MODULE_VERSION 131.\nmore detail',
      );
    };
    expect(() => loadSqliteDriver(wrongAbi)).toThrowError(
      /better-sqlite3 could not be loaded \(The module was compiled against a different Node.js version using NODE_MODULE_VERSION 131\.\): enable it with `npm install better-sqlite3@12\.11\.1`/,
    );
  });

  it('hands back what the loader gives when it loads', () => {
    const fake = function Database() {};
    expect(loadSqliteDriver(() => fake)).toBe(fake);
    expect(() => loadSqliteDriver(() => ({}))).toThrowError(expect.objectContaining({ kind: 'unavailable' }));
  });
});
