/**
 * What a file tool's call will change, worked out once when the user is asked about it: the
 * approval box shows it in place of the raw arguments. Read through the file tools' guarded
 * resolver, never following a link out of the workspace; what cannot be read says why.
 */
export type ChangePreview =
  /** A unified diff (`--- a/x`, `+++ b/x`, `@@` hunks) against the file as it is now; empty when nothing changes. */
  | { readonly kind: 'diff'; readonly diff: string; readonly hunks: number }
  /** A file that does not exist yet: its first lines, how many lines and bytes it will hold. */
  | {
      readonly kind: 'new-file';
      readonly firstLines: readonly string[];
      readonly lines: number;
      readonly bytes: number;
    }
  /** What a deletion removes: a file's size, a directory's file count and total size (`partial` past the walk's bound). */
  | {
      readonly kind: 'removes';
      readonly what: 'file' | 'directory' | 'link' | 'other' | 'nothing';
      readonly files: number;
      readonly bytes: number;
      readonly partial?: boolean;
    }
  /** Why there is nothing to show (the file cannot be read, the path is refused, the edit does not apply). */
  | { readonly kind: 'unreadable'; readonly why: string };

/** Lines of a new file shown in the approval box; the rest are counted. */
export const NEW_FILE_PREVIEW_LINES = 20;

/** How many `@@` hunks a unified diff holds. */
export function hunkCount(diff: string): number {
  return diff.split('\n').filter((line) => line.startsWith('@@')).length;
}
