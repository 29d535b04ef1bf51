/**
 * What the text at the cursor is completing, if anything: a slash command's name (`/mo`), its
 * argument (`/agent re`), or a workspace path after `@` (`fix @src/ma`). The completion popup
 * opens for these and the item chosen replaces the part from `from` to `to`.
 */
export type CompletionTarget =
  | { readonly kind: 'command'; readonly typed: string; readonly from: number; readonly to: number }
  | {
      readonly kind: 'argument';
      readonly command: string;
      readonly typed: string;
      readonly from: number;
      readonly to: number;
    }
  | { readonly kind: 'file'; readonly typed: string; readonly from: number; readonly to: number };

/** The target at `cursor` in `value`; null when the cursor is not at the end of something completable. */
export function completionTarget(value: string, cursor: number): CompletionTarget | null {
  const after = value.slice(cursor);
  if (after !== '' && !/^\s/.test(after)) return null;
  if (cursor === value.length) {
    const name = /^\/([\w-]*)$/.exec(value);
    if (name) return { kind: 'command', typed: name[1]!, from: 0, to: value.length };
    const argument = /^\/([\w-]+) (\S*)$/.exec(value);
    if (argument)
      return {
        kind: 'argument',
        command: argument[1]!,
        typed: argument[2]!,
        from: value.length - argument[2]!.length,
        to: value.length,
      };
  }
  const before = value.slice(0, cursor);
  const mention = /(^|\s)@("?)([^\s"]*)$/.exec(before);
  if (!mention) return null;
  return { kind: 'file', typed: mention[3]!, from: mention.index + mention[1]!.length, to: cursor };
}

/** One row of the popup: what it inserts, what it shows, and a faint note beside it. */
export interface CompletionItem {
  readonly insert: string;
  readonly label: string;
  readonly detail?: string;
}

/** The prompt after choosing `item` for `target`: the item in place of what was typed, the cursor after it. */
export function applyCompletion(
  value: string,
  target: CompletionTarget,
  item: CompletionItem,
): { value: string; cursor: number } {
  const next = value.slice(0, target.from) + item.insert + value.slice(target.to);
  return { value: next, cursor: target.from + item.insert.length };
}

/** How a workspace path goes into the prompt after `@`: quoted when it has a space; a directory keeps its `/` (typing goes on below it). */
export function mentionOf(path: string, directory: boolean): string {
  const written = directory ? `${path}/` : path;
  const quoted = /\s/.test(written) ? `@"${written}"` : `@${written}`;
  return directory ? quoted : `${quoted} `;
}
