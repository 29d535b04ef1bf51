import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ToolContext } from '../../../src/core/tools/tool';
import { resolveWorkspacePath, type WorkspacePath } from '../../../src/core/tools/workspace';
import { tempDirForTest } from '../../support/after-the-test';

export interface TempWorkspace {
  /** The workspace root (real path). */
  readonly root: string;
  /** A sibling directory outside the workspace. */
  readonly outside: string;
  readonly ctx: ToolContext;
  /** A context whose signal the test can abort. */
  abortable(): { ctx: ToolContext; abort: () => void };
}

/** A real temp directory holding `workspace/` and `outside/`, removed after each test. */
export async function tempWorkspace(): Promise<TempWorkspace> {
  const parent = tempDirForTest('tole-tools-');
  const root = path.join(parent, 'workspace');
  const outside = path.join(parent, 'outside');
  await mkdir(root);
  await mkdir(outside);
  const context = (signal: AbortSignal): ToolContext => ({ workspaceRoot: root, signal, callId: 'call-1' });
  return {
    root,
    outside,
    ctx: context(new AbortController().signal),
    abortable() {
      const controller = new AbortController();
      return { ctx: context(controller.signal), abort: () => controller.abort() };
    },
  };
}

/** `requested` checked against the workspace at `root`, as the tools check it; throws when it is refused. */
export async function checkedPath(root: string, requested: string): Promise<WorkspacePath> {
  const resolved = await resolveWorkspacePath(root, requested);
  if (!resolved.ok) throw new Error(resolved.error.message);
  return resolved.path;
}
