/**
 * The process tier's global setup: builds dist/tole.js when the sources are newer (once, before
 * any file starts, instead of the first files racing for the build lock) and bundles the child
 * scripts (test-children.ts). Its teardown removes the simulator's workspaces that the forks
 * could not: vitest stops a fork with SIGTERM, so the fork's exit handlers never run. The forks
 * still running at the teardown are stopped after it, so it sweeps again as vitest exits.
 */
import { sweepOrphanWorkspaces, workspaceBase } from '../sim/sim-workspaces';
import { ensureBuilt } from './built-tole';
import { buildTestChildren } from './test-children';

export default function setup(): () => void {
  ensureBuilt();
  buildTestChildren();
  return () => {
    const base = workspaceBase();
    sweepOrphanWorkspaces(base);
    process.once('exit', () => sweepOrphanWorkspaces(base));
  };
}
