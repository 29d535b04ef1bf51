/**
 * What a test makes and must undo (temp directories, servers, open stores), undone when that test
 * ends; or, for a directory the tests of a whole file share, when that file ends (`tempDirForFile`). A shared support module must not call `afterEach` at its top: the unit and screen tiers
 * run with `isolate: false`, so a worker loads the module once, and the hook is registered for the
 * first test file that imported it alone; every later file's directories were left in /tmp.
 * `onTestFinished` belongs to the test running now (its `beforeEach` included), in any file.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';
import { getCurrentTest } from 'vitest/suite';

/**
 * How a test's directory is removed: a child the test started (a tole killed as the test ends) may
 * still be writing in it, and a removal racing it fails with ENOTEMPTY; Node tries again then.
 */
const REMOVAL = { recursive: true, force: true, maxRetries: 3 } as const;

/**
 * Runs `undo` when the test running now ends, passed or failed. Called outside a test (a `beforeAll`)
 * it throws; in a concurrent test too: vitest cannot tell which of the tests running side by side
 * is "now", so the undo went with whichever ended first, and a test's directory was removed under
 * the tole it was still running (a lock file gone, a commit refused). Concurrent tests share a
 * `tempDirForFile` directory instead.
 */
export function afterTheTest(undo: () => unknown): void {
  if (getCurrentTest()?.concurrent === true)
    throw new Error(
      'afterTheTest / tempDirForTest was called in a concurrent test, whose undo could run when another test ends: make the directory in a tempDirForFile directory',
    );
  onTestFinished(async () => {
    await undo();
  });
}

/**
 * A new temp directory (its real path), removed with all it holds when the test running now ends;
 * made in `parent` when given (/dev/shm, say), else in tmpdir().
 */
export function tempDirForTest(prefix: string, parent: string = tmpdir()): string {
  let path: string | null = null;
  // Registered first: outside a test it throws before any directory is made.
  afterTheTest(() => path !== null && rmSync(path, REMOVAL));
  path = realpathSync(mkdtempSync(join(parent, prefix)));
  return path;
}

/**
 * A new temp directory (its real path) that the tests of one file share, removed with all it holds
 * when that file ends, passed or failed. Call it at the top of the test file or in a `describe`
 * body (the directory then goes when that block ends), never inside a test or a hook: it registers
 * an `afterAll` on the block being collected, and one registered while the tests run (in a
 * `beforeAll`) never runs. Inside a test it throws; in a `beforeAll` nothing can tell, so a file that
 * fills the directory in its `beforeAll` makes it at its top. A shared support module must not call
 * it at its own top, for the reason given above.
 */
export function tempDirForFile(prefix: string, parent: string = tmpdir()): string {
  if (getCurrentTest() !== undefined)
    throw new Error(
      `tempDirForFile('${prefix}') was called inside a test, where its afterAll would never run: use tempDirForTest`,
    );
  const path = realpathSync(mkdtempSync(join(parent, prefix)));
  afterAll(() => rmSync(path, REMOVAL));
  return path;
}

/**
 * A new temp directory (its real path) for a shared fixture that tests call from anywhere: made in
 * a test (or its `beforeEach`) it goes when that test ends, as `tempDirForTest`'s; made at the top
 * of a file or a `describe` body, when that file or block ends, as `tempDirForFile`'s. In a
 * `beforeAll` nothing can tell, and the caller removes it in its `afterAll` as before.
 */
export function tempDirWhereCalled(prefix: string, parent: string = tmpdir()): string {
  return getCurrentTest() === undefined ? tempDirForFile(prefix, parent) : tempDirForTest(prefix, parent);
}
