/**
 * The unit and isolated tiers' global setup: the run's own directory in tmpdir(), where every file of the tier makes
 * its TMPDIR (tmpdir-per-file.ts), made world-writable and sticky like /tmp, and marked for ext4
 * to spread the directories made in it over the disk's block groups (spread-inodes.ts says why).
 * One mark a tier, made here: a chattr started for each file from the process that held the
 * unit and screen threads (about 1 GB) cost more CPU than the mark saved there. Its teardown
 * removes the directory with what is left in it.
 */
import { chmodSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { spreadInodesUnder } from './spread-inodes';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this tier's files make their own TMPDIR (test/support/run-tmpdir.ts). */
    fileTmpdirParent: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'tole-test-run-')));
  chmodSync(dir, 0o1777);
  spreadInodesUnder(dir);
  project.provide('fileTmpdirParent', dir);
  return () => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
