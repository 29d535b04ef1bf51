/** `tempDirForTest` gives a directory that is there for its test and gone when the test ends. */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDirForTest } from './after-the-test';

const PREFIX = `tole-after-the-test-${process.pid}-`;
let made: string | null = null;
let outside: unknown = null;

beforeAll(() => {
  try {
    tempDirForTest(PREFIX);
  } catch (error) {
    outside = error;
  }
});

describe('a temp directory for a test', () => {
  it('is there, real and writable, while the test runs', () => {
    made = tempDirForTest(PREFIX);
    writeFileSync(join(made, 'kept.txt'), 'a file inside');
    expect(existsSync(join(made, 'kept.txt'))).toBe(true);
  });

  it('is gone, with what it held, once its test ended', () => {
    expect(made).not.toBeNull();
    expect(existsSync(made!)).toBe(false);
  });

  it('outside a test it is refused, and no directory is made', () => {
    expect(String(outside)).toMatch(/can only be called inside a test/);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(PREFIX))).toEqual([]);
  });
});
