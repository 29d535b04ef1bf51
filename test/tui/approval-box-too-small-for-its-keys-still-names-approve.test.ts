/**
 * Below the smallest box tole supports (a 40x8 terminal), not every row of keys fits: the rows kept
 * are the first ones, so the row naming y (which approves, for a warning: runs the command
 * unconfined) is on screen whenever y acts. Before, the last rows stayed (n deny, Esc stop the
 * turn) and y approved a warned command with its key never shown (seen in tmux at 40x8).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { REACH_START, vettingOutcome } from '../../src/core/approval/unconfined-vetting';
import { approvalView, fitApproval } from '../../src/tui/approval/approval-lines';
import { pendingApproval } from '../../src/tui/approval/approval-queue';
import type { Line } from '../../src/tui/style/styled-line';
import { fcRuns } from '../support/fc-runs';

const text = (line: Line): string => line.map((s) => s.text).join('');

function warned(unvouched: readonly string[], risk: ApprovalRequest['risk']): ApprovalRequest {
  const vetting = { unvouched, outcome: 'warned' as const };
  const command = "bash -lc 'echo reached > /tmp/mark'";
  return {
    callId: 'call_w',
    tool: 'bash',
    subject: command,
    input: { command },
    risk,
    reason: '`> /tmp/mark` creates /tmp/mark',
    runs: vettingOutcome(vetting),
    vetting,
  };
}

describe('a box too small for its keys', () => {
  it('at 36 columns and 4 rows (a 40x8 terminal) shows the row naming y', () => {
    const view = approvalView(
      pendingApproval(warned([`${REACH_START}starts bash to read startup files`], 'Write')),
      36,
    );
    expect(view.keyRows).toBeGreaterThan(2);
    const shown = fitApproval(view, 4, 0).lines.map(text);
    expect(shown.some((row) => row.startsWith('y approve'))).toBe(true);
  });

  it('at any width and height, whenever a key row is shown, the first (y) is among them', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 24, max: 60 }),
        fc.integer({ min: 3, max: 12 }),
        fc.constantFrom<ApprovalRequest['risk']>('Write', 'Destructive'),
        (findings, width, height, risk) => {
          const unvouched = Array.from({ length: findings }, (_, i) => `${REACH_START}runs ssh ${i}`);
          const view = approvalView(pendingApproval(warned(unvouched, risk)), width);
          const keys = view.foot.slice(-(view.keyRows ?? 1));
          const fitted = fitApproval(view, height, 0);
          expect(fitted.lines.length).toBeLessThanOrEqual(height);
          if (keys.some((row) => fitted.lines.includes(row))) expect(fitted.lines).toContain(keys[0]);
        },
      ),
      { numRuns: fcRuns(0.3) },
    );
  });
});
