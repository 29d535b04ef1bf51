/**
 * What a test makes and must undo (temp directories, servers, open stores), undone when that test
 * ends. A shared support module must not call `afterEach` at its top: the unit and screen tiers
 * run with `isolate: false`, so a worker loads the module once, and the hook is registered for the
 * first test file that imported it alone; every later file's directories were left in /tmp.
 * `onTestFinished` belongs to the test running now (its `beforeEach` included), in any file.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** Runs `undo` when the test running now ends, passed or failed. Called outside a test (a `beforeAll`) it throws. */
export function afterTheTest(undo: () => unknown): void {
  onTestFinished(async () => {
    await undo();
  });
}

/** A new temp directory (its real path), removed with all it holds when the test running now ends. */
export function tempDirForTest(prefix: string): string {
  let path: string | null = null;
  // Registered first: outside a test it throws before any directory is made.
  afterTheTest(() => path !== null && rmSync(path, { recursive: true, force: true }));
  path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return path;
}
