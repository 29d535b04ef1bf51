import type { AnyTool } from '../tool';
import { createBashTool, type BashToolOptions } from './bash';
import { deletePathTool } from './delete-path';
import { editFileTool } from './edit-file';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listDirTool } from './list-dir';
import { readFileTool } from './read-file';
import { updatePlanTool } from './update-plan';
import { writeFileTool } from './write-file';

interface BuiltinToolsOptions {
  /** Absolute, symlink-resolved workspace root (bash classifies relative paths against it). */
  readonly workspaceRoot: string;
  /**
   * False in headless mode: `delete_path` (Destructive) is then left out, since the registry
   * refuses a Destructive tool nobody can approve.
   */
  readonly interactiveApprover: boolean;
  /** The environment of bash calls, without the user's secrets (`childEnv`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Confines bash calls run without a keypress. */
  readonly sandbox?: BashToolOptions['sandbox'];
  /** Repository git config keys the user vouched for. */
  readonly trustedGitKeys?: readonly string[];
  /** The user's home folders (BashToolOptions.homes). */
  readonly homes?: readonly string[];
}

/** Every built-in tool, in the order the model sees them. */
export function builtinTools(options: BuiltinToolsOptions): AnyTool[] {
  const tools: AnyTool[] = [
    readFileTool,
    listDirTool,
    globTool,
    grepTool,
    writeFileTool,
    editFileTool,
    createBashTool({
      workspaceRoot: options.workspaceRoot,
      ...(options.env ? { env: options.env } : {}),
      sandbox: options.sandbox ?? null,
      ...(options.trustedGitKeys ? { trustedGitKeys: options.trustedGitKeys } : {}),
      ...(options.homes ? { homes: options.homes } : {}),
    }),
    updatePlanTool,
  ];
  return options.interactiveApprover ? [...tools, deletePathTool] : tools;
}
