/**
 * A unified line diff for the screen, by jsdiff (`structuredPatch`: Myers' diff, three lines of
 * context). When the texts differ in more places than `MAX_DIFF_EDITS` (or the comparison runs
 * past `DIFF_TIMEOUT_MS`), the change is shown as wholly removed and added: still a correct diff,
 * just not a minimal one, and a tool call never waits on a diff.
 */
import { structuredPatch, type StructuredPatchHunk } from 'diff';

const MAX_DIFF_EDITS = 5_000;
export const DIFF_TIMEOUT_MS = 1_500;
const DIFF_CONTEXT_LINES = 3;

const NO_NEWLINE = '\\ No newline at end of file';

/** `--- a/x`, `+++ b/x`, `@@ -1,3 +1,4 @@` hunks; empty when the texts are equal. */
export function unifiedDiff(path: string, oldText: string | null, newText: string): string {
  if (oldText === newText) return '';
  const before = oldText ?? '';
  const patch = structuredPatch(path, path, before, newText, undefined, undefined, {
    context: DIFF_CONTEXT_LINES,
    maxEditLength: MAX_DIFF_EDITS,
    timeout: DIFF_TIMEOUT_MS,
  });
  const hunks = patch === undefined ? [wholeReplacement(before, newText)] : patch.hunks;
  const header = [oldText === null ? '--- /dev/null' : `--- a/${path}`, `+++ b/${path}`];
  return [...header, ...hunks.map(renderHunk)].join('\n');
}

/** Every old line removed, every new one added (with the no-newline notes where they belong). */
function wholeReplacement(before: string, after: string): StructuredPatchHunk {
  const removed = markedLines(before, '-');
  const added = markedLines(after, '+');
  const count = (lines: string[]): number => lines.filter((line) => line !== NO_NEWLINE).length;
  return { oldStart: 1, oldLines: count(removed), newStart: 1, newLines: count(added), lines: [...removed, ...added] };
}

function markedLines(text: string, mark: '-' | '+'): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  const endsWithNewline = lines[lines.length - 1] === '';
  if (endsWithNewline) lines.pop();
  const marked = lines.map((line) => `${mark}${line}`);
  return endsWithNewline ? marked : [...marked, NO_NEWLINE];
}

/** An empty range names the line before it (`-0,0` for an insertion at the top). */
function renderHunk(hunk: StructuredPatchHunk): string {
  const range = (start: number, count: number): string => `${count === 0 ? start - 1 : start},${count}`;
  return [`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines].join(
    '\n',
  );
}
