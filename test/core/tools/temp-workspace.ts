import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { ToolContext } from '../../../src/core/tools/tool';

export interface TempWorkspace {
  /** The workspace root (real path). */
  readonly root: string;
  /** A sibling directory outside the workspace. */
  readonly outside: string;
  readonly ctx: ToolContext;
  /** A context whose signal the test can abort. */
  abortable(): { ctx: ToolContext; abort: () => void };
}

const created: string[] = [];

afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A real temp directory holding `workspace/` and `outside/`, removed after each test. */
export async function tempWorkspace(): Promise<TempWorkspace> {
  const parent = await realpath(await mkdtemp(path.join(tmpdir(), 'tole-tools-')));
  created.push(parent);
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
