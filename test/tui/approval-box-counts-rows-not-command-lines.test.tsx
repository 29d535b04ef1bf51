/**
 * The box counts what it scrolls in rows, and says rows. A sub-agent asked at 80x24 for a bash
 * call of two lines, the first a long `rm -rf` of 39 paths: the box's gutter numbered the command
 * lines 1 and 2, but its top border said "lines 1–9 of 22", and y said "lines 10–22 of 22 have
 * not been on screen" (the wrapped rows, and at 60x20 a 30-line command from a plan step read
 * "lines 1–5 of 60"). Told of 22 lines, a user who sees line 2 of 2 takes the rest for padding.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { createTuiApprover } from '../../src/tui/approval/approval-queue';
import { renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';
import { settled } from './approval-fixtures';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const PAGE_DOWN = '\u001b[6~';

const paths = Array.from({ length: 39 }, (_, i) => `./cache/segment-number-${String(i + 1).padStart(3, '0')}`);
const command = `rm -rf ${paths.join(' ')}\nrm -rf ./dist ./coverage ~/.ssh`;
const wrapped: ApprovalRequest = {
  callId: 'call_wrapped',
  tool: 'bash',
  subject: command,
  input: { command },
  risk: 'Destructive',
  reason: '`rm -r` removes a directory tree',
  agent: 'sub-agent (session 1-a)',
};

/** Every "<word> a–b of n" the frame holds. */
function counts(frame: string): { word: string; total: number }[] {
  return [...stripAnsi(frame).matchAll(/(\w+) \d+–\d+ of (\d+)/g)].map((m) => ({ word: m[1]!, total: Number(m[2]) }));
}

describe('the approval box counts its scroll in rows, not in lines of the command', () => {
  for (const [columns, rows] of [
    [80, 24],
    [60, 20],
  ] as const) {
    it(`a two-line command wrapped into many rows at ${columns}x${rows} is never called more lines`, async () => {
      const approvals = createTuiApprover({ armMs: 0 });
      screen = renderScreen({ store: emptyStore(), approvals, columns, rows });
      const decision = approvals.decide(wrapped, new AbortController().signal);
      const first = await screen.waitFor('approve?');
      const border = counts(first);
      expect(border.length).toBe(1);
      expect(border[0]).toMatchObject({ word: 'rows' });
      expect(border[0]!.total).toBeGreaterThan(2);

      await screen.press('y');
      expect(await settled(decision)).toBe('pending');
      const warned = stripAnsi(await screen.waitFor('have not been on screen'));
      expect(warned).toMatch(/rows \d+–\d+ of \d+ have not been on screen/);
      expect(warned).not.toMatch(/lines \d+–\d+ of \d+/);

      for (let i = 0; i < 20 && !stripAnsi(screen.frame()).includes('~/.ssh'); i++) await screen.press(PAGE_DOWN);
      expect(stripAnsi(screen.frame())).toContain('~/.ssh');
      await screen.press('n', '\r');
      expect(await decision).toMatchObject({ approved: false, by: 'user' });
    });
  }
});
