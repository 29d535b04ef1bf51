import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/core/tools/builtin/line-diff';

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a', 'x\n', 'x\n')).toBe('');
  });

  it('keeps three lines of context and splits distant changes into hunks', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
    const after = before.replace('l2\n', 'L2\n').replace('l18\n', 'l18\nnew\n');
    expect(unifiedDiff('f', before, after)).toBe(
      [
        '--- a/f',
        '+++ b/f',
        '@@ -1,5 +1,5 @@',
        ' l1',
        '-l2',
        '+L2',
        ' l3',
        ' l4',
        ' l5',
        '@@ -16,5 +16,6 @@',
        ' l16',
        ' l17',
        ' l18',
        '+new',
        ' l19',
        ' l20',
      ].join('\n'),
    );
  });

  it('marks a missing newline at the end of the file', () => {
    expect(unifiedDiff('f', 'a\nb', 'a\nb\n')).toBe(
      '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b',
    );
  });

  it('shows a deletion of everything', () => {
    expect(unifiedDiff('f', 'a\nb\n', '')).toBe('--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-a\n-b');
  });

  it('stays fast and correct for large files with a change in the middle', () => {
    const before = Array.from({ length: 200_000 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 100000\n', 'changed\n');
    // A diff that ran past DIFF_TIMEOUT_MS would be the whole file replaced, not this one hunk.
    const diff = unifiedDiff('big', before, after);
    expect(diff).toContain('@@ -99998,7 +99998,7 @@');
    expect(diff).toContain('-line 100000\n+changed');
  });

  it('gives a minimal diff of a 5,000-line file changed in many places', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `row ${i}`);
    const changed = lines.map((line, i) => (i % 100 === 50 ? `${line} edited` : line));
    const diff = unifiedDiff('f', `${lines.join('\n')}\n`, `${changed.join('\n')}\n`).split('\n');
    // 50 one-line changes: 50 removed and 50 added lines, not 5,000 of each.
    expect(diff.filter((line) => line.startsWith('-row'))).toHaveLength(50);
    expect(diff.filter((line) => line.startsWith('+row'))).toHaveLength(50);
    expect(diff.filter((line) => line.startsWith('@@'))).toHaveLength(50);
    expect(diff).toContain('@@ -48,7 +48,7 @@');
  });

  it('shows a file made from nothing as one hunk of additions', () => {
    expect(unifiedDiff('f', null, 'a\nb')).toBe(
      '--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file',
    );
  });

  it('falls back to remove-then-add when the changed middle is too large to compare', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n') + '\n';
    const after = Array.from({ length: 3000 }, (_, i) => `b${i}`).join('\n') + '\n';
    const diff = unifiedDiff('f', before, after).split('\n');
    expect(diff.filter((line) => line.startsWith('-a'))).toHaveLength(3000);
    expect(diff.filter((line) => line.startsWith('+b'))).toHaveLength(3000);
  });
});
