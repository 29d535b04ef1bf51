/**
 * A unified line diff for the screen: common prefix and suffix trimmed, then a longest common
 * subsequence over what is left. When the middle is too large to compare (more than
 * `MAX_DIFF_CELLS` line pairs) it is shown as wholly removed and added: still a correct diff,
 * just not a minimal one.
 */
export const MAX_DIFF_CELLS = 4_000_000;
export const DIFF_CONTEXT_LINES = 3;

const NO_NEWLINE = '\n\\ No newline at end of file';

type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string };

interface Hunk {
  readonly oldStart: number;
  readonly newStart: number;
  readonly ops: readonly Op[];
}

/** `--- a/x`, `+++ b/x`, `@@ -1,3 +1,4 @@` hunks; empty when the texts are equal. */
export function unifiedDiff(path: string, oldText: string | null, newText: string): string {
  if (oldText === newText) return '';
  const ops = diffLines(splitLines(oldText ?? ''), splitLines(newText));
  const header = [oldText === null ? '--- /dev/null' : `--- a/${path}`, `+++ b/${path}`];
  return [...header, ...hunks(ops).map(renderHunk)].join('\n');
}

/** Lines without their `\n`; a last line with no newline carries the `\ No newline` note. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += NO_NEWLINE;
  return lines;
}

export function diffLines(oldLines: readonly string[], newLines: readonly string[]): Op[] {
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < oldLines.length - prefix &&
    suffix < newLines.length - prefix &&
    oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const same = (line: string): Op => ({ kind: ' ', line });
  const middle = diffMiddle(oldLines.slice(prefix, oldLines.length - suffix), newLines.slice(prefix, newLines.length - suffix));
  return [...oldLines.slice(0, prefix).map(same), ...middle, ...oldLines.slice(oldLines.length - suffix).map(same)];
}

function diffMiddle(a: readonly string[], b: readonly string[]): Op[] {
  if (a.length * b.length > MAX_DIFF_CELLS) {
    return [...a.map((line): Op => ({ kind: '-', line })), ...b.map((line): Op => ({ kind: '+', line }))];
  }
  const width = b.length + 1;
  // lcs[i * width + j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i * width + j] =
        a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] });
      i += 1;
      j += 1;
    } else if (i < a.length && (j === b.length || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])) {
      ops.push({ kind: '-', line: a[i] });
      i += 1;
    } else {
      ops.push({ kind: '+', line: b[j] });
      j += 1;
    }
  }
  return ops;
}

/** Groups changes with `DIFF_CONTEXT_LINES` of context; changes closer than twice that share a hunk. */
function hunks(ops: readonly Op[]): Hunk[] {
  const result: Hunk[] = [];
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  const lineNumbers = startLineNumbers(ops);
  let cursor = 0;
  while (cursor < changed.length) {
    let last = cursor;
    while (last + 1 < changed.length && changed[last + 1] - changed[last] <= DIFF_CONTEXT_LINES * 2 + 1) last += 1;
    const from = Math.max(0, changed[cursor] - DIFF_CONTEXT_LINES);
    const to = Math.min(ops.length, changed[last] + DIFF_CONTEXT_LINES + 1);
    result.push({ ...lineNumbers[from], ops: ops.slice(from, to) });
    cursor = last + 1;
  }
  return result;
}

/** For each op, the 1-based old and new line numbers it starts at. */
function startLineNumbers(ops: readonly Op[]): { oldStart: number; newStart: number }[] {
  const numbers: { oldStart: number; newStart: number }[] = [];
  let oldStart = 1;
  let newStart = 1;
  for (const op of ops) {
    numbers.push({ oldStart, newStart });
    if (op.kind !== '+') oldStart += 1;
    if (op.kind !== '-') newStart += 1;
  }
  return numbers;
}

function renderHunk(hunk: Hunk): string {
  const oldCount = hunk.ops.filter((op) => op.kind !== '+').length;
  const newCount = hunk.ops.filter((op) => op.kind !== '-').length;
  const range = (start: number, count: number): string => `${count === 0 ? start - 1 : start},${count}`;
  const header = `@@ -${range(hunk.oldStart, oldCount)} +${range(hunk.newStart, newCount)} @@`;
  return [header, ...hunk.ops.map((op) => `${op.kind}${op.line}`)].join('\n');
}
