/** `tempDirForTest` gives a directory that is there for its test and gone when the test ends. */
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { afterTheTest, tempDirForFile, tempDirForTest, tempDirWhereCalled } from './after-the-test';

const PREFIX = `tole-after-the-test-${process.pid}-`;
const FILE_PREFIX = `tole-after-the-file-${process.pid}-`;
const WHERE_PREFIX = `tole-where-called-${process.pid}-`;
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

describe.concurrent('in tests that run side by side', () => {
  // Which test's end would remove it cannot be told: one test's directory went when another ended.
  it('a temp directory for one test is refused, and none is made', () => {
    expect(() => tempDirForTest(PREFIX)).toThrow(/concurrent test.*tempDirForFile/);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(PREFIX))).toEqual([]);
  });

  it('so is any undo for the test running now', () => {
    expect(() => afterTheTest(() => undefined)).toThrow(/concurrent test/);
  });
});

describe('a temp directory for a file', () => {
  let shared = '';
  describe('made in a describe body', () => {
    shared = tempDirForFile(FILE_PREFIX);

    it('is there, real and writable, for every test of the block', () => {
      writeFileSync(join(shared, 'first.txt'), 'from the first test');
      expect(realpathSync(shared)).toBe(shared);
    });

    it('still holds what an earlier test of the block wrote', () => {
      expect(readFileSync(join(shared, 'first.txt'), 'utf8')).toBe('from the first test');
    });
  });

  it('is gone, with what it held, once its block ended', () => {
    expect(shared).not.toBe('');
    expect(existsSync(shared)).toBe(false);
  });

  it('inside a test it is refused, and no directory is made', () => {
    expect(() => tempDirForFile(FILE_PREFIX)).toThrow(/inside a test.*use tempDirForTest/);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(FILE_PREFIX))).toEqual([]);
  });
});

describe('a temp directory for a shared fixture (tempDirWhereCalled)', () => {
  let inTest = '';
  let inBlock = '';
  let inParent = '';
  const parent = tempDirForFile(WHERE_PREFIX);
  describe('made in a describe body', () => {
    inBlock = tempDirWhereCalled(WHERE_PREFIX);

    it('made in a test, is there while the test runs; made in the block, too', () => {
      inTest = tempDirWhereCalled(WHERE_PREFIX);
      inParent = tempDirWhereCalled(WHERE_PREFIX, parent);
      expect(existsSync(inTest) && existsSync(inBlock) && existsSync(inParent)).toBe(true);
      expect(inParent.startsWith(`${parent}/`)).toBe(true);
    });

    it("goes when the test that made it ended, in the parent it was given too; the block's stays", () => {
      expect(existsSync(inTest)).toBe(false);
      expect(existsSync(inParent)).toBe(false);
      expect(existsSync(inBlock)).toBe(true);
    });
  });

  it('made in a describe body, goes when the block ended', () => {
    expect(inBlock).not.toBe('');
    expect(existsSync(inBlock)).toBe(false);
  });
});
