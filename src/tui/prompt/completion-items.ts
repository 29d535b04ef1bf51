import { type CompletionItem, type CompletionTarget, completionTarget, mentionOf } from './completion-target';
import type { EditorState } from './line-editor';
import type { SlashCommand } from '../commands/slash-commands';
import type { WorkspacePathItem, WorkspacePathSource } from './workspace-paths';

/** The popup shows at most this many matches. */
export const MAX_COMPLETIONS = 8;

/**
 * The commands whose argument may be a workspace file, and the ending such a file has. Of the
 * screen's and the host's commands only `/theme` takes a path (a theme's .json file).
 */
const PATH_ARGUMENTS: Readonly<Record<string, string>> = { theme: '.json' };

/** Paths asked of the index for a path argument, before those without the ending are left out. */
const PATHS_ASKED = 50;

/** Where completions come from: the commands, their arguments' values, the workspace's paths. */
export interface CompletionSources {
  readonly commands: readonly SlashCommand[];
  /** The values `/command ` takes (profiles, sessions, models), as known now; null for a command that completes nothing. */
  readonly argumentsOf: (command: string) => readonly CompletionItem[] | null;
  readonly paths: WorkspacePathSource | null;
  /** `/model `'s values: the server's models, asked for when first wanted. */
  readonly models?: AskedValues | null;
}

/** Values of a command's argument asked of something slow (the server's models): offered once they are in. */
export interface AskedValues {
  /** The values as known now (none until they are in); the first call asks for them. */
  items(): readonly CompletionItem[];
  /** What the popup says while it has none to offer: that they are being asked for, or why there are none; null: nothing. */
  note(): string | null;
  /** Calls `listener` when an answer lands; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** What the popup shows for the prompt as it is: the target and its matches, best first (none: no popup). */
export interface CompletionList {
  readonly target: CompletionTarget;
  readonly items: readonly CompletionItem[];
}

/**
 * `now`: paths are the answer to what is typed itself, a search still running finished first (for
 * a key that inserts a match); otherwise the last answer stands until the new one lands.
 */
export function completionList(editor: EditorState, sources: CompletionSources, now = false): CompletionList | null {
  const target = completionTarget(editor.value, editor.cursor);
  if (target === null) return null;
  const items = itemsFor(target, sources, now);
  return items.length === 0 ? null : { target, items };
}

function itemsFor(target: CompletionTarget, sources: CompletionSources, now: boolean): CompletionItem[] {
  const search = (paths: WorkspacePathSource, typed: string, limit: number) =>
    now ? paths.searchNow(typed, limit) : paths.search(typed, limit);
  switch (target.kind) {
    case 'command':
      return sources.commands
        .filter((command) => command.name.startsWith(target.typed))
        .slice(0, MAX_COMPLETIONS)
        .map((command) => ({ insert: `/${command.name} `, label: `/${command.name}`, detail: command.help }));
    case 'argument': {
      const values = valuesOf(target.command, sources);
      const typed = target.typed.toLowerCase();
      const named = values.filter((item) => item.insert.toLowerCase().includes(typed));
      const ending = PATH_ARGUMENTS[target.command];
      const files = ending === undefined ? [] : pathArguments(target.typed, ending, sources.paths, search);
      return [...named, ...files].slice(0, MAX_COMPLETIONS);
    }
    case 'file':
      return (sources.paths ? search(sources.paths, target.typed, MAX_COMPLETIONS) : []).map((item) => ({
        insert: mentionOf(item.path, item.directory),
        label: item.directory ? `${item.path}/` : item.path,
      }));
  }
}

/** Workspace files with `ending` (and folders, to go down into) matching `typed`, as a path argument takes them: plain, no `@`. */
function pathArguments(
  typed: string,
  ending: string,
  paths: WorkspacePathSource | null,
  search: (paths: WorkspacePathSource, typed: string, limit: number) => readonly WorkspacePathItem[],
): CompletionItem[] {
  if (paths === null) return [];
  return search(paths, typed, PATHS_ASKED)
    .filter((item) => item.directory || item.path.endsWith(ending))
    .map((item) =>
      item.directory
        ? { insert: `${item.path}/`, label: `${item.path}/`, detail: 'folder' }
        : { insert: item.path, label: item.path, detail: 'workspace file' },
    );
}

/** True when the text at the cursor completes a workspace path: after `@`, or a path-taking command's argument. */
export function completesPath(value: string, cursor: number): boolean {
  const target = completionTarget(value, cursor);
  if (target === null) return false;
  return target.kind === 'file' || (target.kind === 'argument' && PATH_ARGUMENTS[target.command] !== undefined);
}

function valuesOf(command: string, sources: CompletionSources): readonly CompletionItem[] {
  if (command === 'model' && sources.models) return sources.models.items();
  return sources.argumentsOf(command) ?? [];
}

/** The line the popup shows in place of values that are not in yet (or could not be had); null: none. */
export function completionNote(editor: EditorState, sources: CompletionSources): string | null {
  const target = completionTarget(editor.value, editor.cursor);
  if (target?.kind !== 'argument' || target.command !== 'model' || !sources.models) return null;
  if (sources.models.items().length > 0) return null;
  return sources.models.note();
}
