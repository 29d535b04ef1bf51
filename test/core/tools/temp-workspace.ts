import { mkdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createBashTool } from '../../../src/core/tools/builtin/bash';
import type { Sandbox } from '../../../src/core/tools/sandbox';
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

/**
 * The bash tool as tole runs it without a keypress: confined by `sandbox` to `ws` and a private
 * session temp directory beside it (`session-tmp`, 0700, as tole makes it), the network off unless
 * asked. `env` is the command's environment (PATH alone unless given).
 */
export function sandboxedBash(
  ws: TempWorkspace,
  sandbox: Sandbox,
  options: {
    readonly env?: Readonly<Record<string, string>>;
    readonly network?: boolean;
    /** SandboxPolicy.hidden: what the command may not see. */
    readonly hidden?: readonly string[];
  } = {},
): { readonly bash: ReturnType<typeof createBashTool>; readonly tempDir: string } {
  const tempDir = path.join(path.dirname(ws.root), 'session-tmp');
  mkdirSync(tempDir, { mode: 0o700 });
  const bash = createBashTool({
    workspaceRoot: ws.root,
    env: options.env ?? { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    sandbox: {
      sandbox,
      policy: {
        workspaceRoot: ws.root,
        tempDir,
        network: options.network ?? false,
        ...(options.hidden ? { hidden: options.hidden } : {}),
      },
    },
  });
  return { bash, tempDir };
}
