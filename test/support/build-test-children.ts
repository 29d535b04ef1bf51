/**
 * The process tier's global setup: builds dist/tole.js when the sources are newer (once, before
 * any file starts, instead of the first files racing for the build lock) and bundles the child
 * scripts (test-children.ts), and makes the run's code cache for the toles in a terminal
 * (shared-code-cache.ts). Its teardown removes that, and the simulator's workspaces that the forks
 * could not: vitest stops a fork with SIGTERM, so the fork's exit handlers never run. The forks
 * still running at the teardown are stopped after it, so it sweeps again as vitest exits.
 */
import type { TestProject } from 'vitest/node';
import { sweepOrphanWorkspaces, workspaceBase } from '../sim/sim-workspaces';
import { ensureBuilt } from './built-tole';
import { sharedCodeCache } from './shared-code-cache';
import { buildTestChildren } from './test-children';

export default function setup(project: TestProject): () => void {
  ensureBuilt();
  buildTestChildren();
  const codeCache = sharedCodeCache();
  project.provide('toleCodeCacheHome', codeCache.dir);
  return () => {
    codeCache.remove();
    const base = workspaceBase();
    sweepOrphanWorkspaces(base);
    process.once('exit', () => sweepOrphanWorkspaces(base));
  };
}
