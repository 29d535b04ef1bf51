/**
 * A command edited in the approval box (`e`) is what ⏎ approves, so every line of it can be read
 * before the key: the edited command is the box's body, ↑↓ (and PgUp/PgDn) move the cursor a line
 * (ten) and the box keeps the cursor's line in sight. At 80x24 a 60-line command's edit showed only
 * its last 13 lines, with no key to reach the others. Drawn by the shipped renderer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { moveLines } from '../../src/tui/approval/approval-keys';
import { settled } from './approval-fixtures';
import { KEYS, pane, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const LINES = 60;
const command = Array.from({ length: LINES }, (_, i) => `echo line ${String(i + 1).padStart(3, '0')} >> out.txt`).join(
  '\n',
);
const request: ApprovalRequest = {
  callId: 'call_long',
  tool: 'bash',
  subject: command,
  input: { command },
  risk: 'Write',
  reason: '`>> out.txt` appends to out.txt',
};

const UP = '\u001b[A';
const DOWN = '\u001b[B';
const PAGE_UP = '\u001b[5~';

/** The numbers of the command's lines the box shows while it is edited. */
function shownLines(frame: string): number[] {
  return [...pane(stripAnsi(frame), 'approve?').matchAll(/^\s*(\d+) echo line (\d{3})/gm)].map((m) => Number(m[2]));
}

describe('an edited command in the approval box', () => {
  for (const [columns, rows] of [
    [80, 24],
    [120, 40],
  ] as const)
    it(`can be read line by line before ⏎ approves it (${columns}x${rows})`, async () => {
      const policy = new ApprovalPolicy({ rules: [], yes: false, interactive: true, sandbox: false });
      screen = renderScreen({ store: emptyStore(), policy, columns, rows });
      const decision = screen.approvals.decide(request, new AbortController().signal);
      await screen.waitFor('approve?');
      await screen.press('e');
      // The cursor starts at the end: the last line is in sight, with the cursor.
      const first = await screen.waitFor('run instead (as edited):');
      expect(stripAnsi(first)).toContain('echo line 060 >> out.txt▏');
      const seen = new Set(shownLines(first));
      // Up a page at a time, then a line at a time: every line comes into sight.
      for (let i = 0; i < 8; i++) {
        await screen.press(PAGE_UP);
        for (const n of shownLines(screen.frame())) seen.add(n);
      }
      expect(shownLines(screen.frame())).toContain(1);
      for (let i = 0; i < LINES; i++) {
        await screen.press(DOWN);
        for (const n of shownLines(screen.frame())) seen.add(n);
      }
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
      // Typing goes where the cursor is, on the last line, and ⏎ approves what was shown.
      await screen.press(UP, DOWN);
      await screen.type(' # x');
      await screen.press(KEYS.enter);
      const answered = await settled(decision);
      expect(answered).toMatchObject({ approved: true, edited: { subject: `${command} # x` } });
    });

  it('moves the cursor a line at the same column, or the line end, never inside a surrogate pair', () => {
    expect(moveLines({ value: 'abc\nd\nefgh', cursor: 2 }, 1)).toEqual({ value: 'abc\nd\nefgh', cursor: 5 });
    expect(moveLines({ value: 'abc\nd\nefgh', cursor: 2 }, 2)).toEqual({ value: 'abc\nd\nefgh', cursor: 8 });
    expect(moveLines({ value: 'abc\nd\nefgh', cursor: 9 }, -5)).toEqual({ value: 'abc\nd\nefgh', cursor: 3 });
    expect(moveLines({ value: 'ab\n😀x', cursor: 2 }, 1).cursor).toBe(5);
    expect(moveLines({ value: 'abc\n😀x', cursor: 1 }, 1).cursor).toBe(4);
    expect(moveLines({ value: 'abc\n😀x', cursor: 2 }, 1).cursor).toBe(6);
    expect(moveLines({ value: 'abcd\nx😀', cursor: 2 }, 1).cursor).toBe(6);
  });
});
