/**
 * The approval box lists only the keys that act on the call on screen: `p` only where the policy
 * would keep the command's prefix (a Write shell call in the sandbox: never a Destructive one, nor
 * without a sandbox), `a` only where an allowance would be honoured, `e` only for a shell command.
 * Checked for every kind of box at 60x20, 80x24 and 160x45, in the box and in the status bar.
 */
import { describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { approvalBox, approvalViewAt } from '../../src/tui/approval/ApprovalPrompt';
import { approvalOffers } from '../../src/tui/approval/approval-offers';
import { pendingApproval } from '../../src/tui/approval/approval-queue';
import { destructiveRequest, writeRequest } from './approval-fixtures';
import { pane, renderScreen, stripAnsi } from './harness';
import { emptyStore } from './session-fixture';

const bash = (
  command: string,
  risk: ApprovalRequest['risk'],
  more: Partial<ApprovalRequest> = {},
): ApprovalRequest => ({
  callId: `call_${risk}`,
  tool: 'bash',
  subject: command,
  input: { command },
  risk,
  reason: 'a reason',
  ...more,
});

const KINDS: Record<string, ApprovalRequest> = {
  'bash ReadOnly (outside the sandbox)': bash('ls -la', 'ReadOnly', { outsideSandbox: true }),
  'bash Mutating': bash('npm test', 'Write'),
  'bash Destructive': destructiveRequest,
  write_file: writeRequest,
  edit_file: {
    callId: 'call_e',
    tool: 'edit_file',
    subject: 'src/a.ts',
    input: { path: 'src/a.ts', old: 'a', new: 'b' },
    risk: 'Write',
    reason: 'edits a file',
  },
  delete_path: {
    callId: 'call_x',
    tool: 'delete_path',
    subject: 'build',
    input: { path: 'build' },
    risk: 'Destructive',
    reason: 'deletes a path',
  },
  'MCP tool': {
    callId: 'call_m',
    tool: 'notes__add_note',
    subject: '{"title":"t"}',
    input: { title: 't' },
    risk: 'Write',
    reason: 'an MCP tool',
  },
  "sub-agent's bash": bash('cargo build', 'Write', { agent: 'sub-agent reviewer (session 1796-abcdef)' }),
};

/** The keys each kind lists, with a sandbox and without one. */
const EXPECTED: Record<string, { sandbox: string[]; none: string[] }> = {
  'bash ReadOnly (outside the sandbox)': { sandbox: ['y', 'n', 'e', 'Esc'], none: ['y', 'n', 'e', 'Esc'] },
  'bash Mutating': { sandbox: ['y', 'n', 'a', 'p', 'e', 'Esc'], none: ['y', 'n', 'e', 'Esc'] },
  'bash Destructive': { sandbox: ['y', 'n', 'e', 'Esc'], none: ['y', 'n', 'e', 'Esc'] },
  write_file: { sandbox: ['y', 'n', 'a', 'Esc'], none: ['y', 'n', 'a', 'Esc'] },
  edit_file: { sandbox: ['y', 'n', 'a', 'Esc'], none: ['y', 'n', 'a', 'Esc'] },
  delete_path: { sandbox: ['y', 'n', 'Esc'], none: ['y', 'n', 'Esc'] },
  'MCP tool': { sandbox: ['y', 'n', 'a', 'Esc'], none: ['y', 'n', 'a', 'Esc'] },
  "sub-agent's bash": { sandbox: ['y', 'n', 'a', 'p', 'e', 'Esc'], none: ['y', 'n', 'e', 'Esc'] },
};

const KEY_TEXT: Record<string, RegExp> = {
  y: /\by approve once\b/,
  n: /\bn deny \(type why, ⏎\)/,
  a: /\ba allow \S+ for this session\b/,
  p: /\bp allow its prefix\b/,
  e: /\be edit it\b/,
  Esc: /\bEsc stop the turn\b/,
};

const SIZES = [
  [60, 20],
  [80, 24],
  [160, 45],
] as const;

function policy(sandbox: boolean): ApprovalPolicy {
  return new ApprovalPolicy({ rules: [], yes: false, interactive: true, sandbox });
}

/** The keys the box shows at a size (the box as the screen lays it out, scrolled to the top). */
function listedKeys(request: ApprovalRequest, sandbox: boolean, columns: number, rows: number): string[] {
  const pending = pendingApproval(request);
  const view = approvalViewAt(pending, columns, null, approvalOffers(pending, policy(sandbox)));
  const box = approvalBox(view, Math.max(6, Math.floor((rows - 1) * 0.75)), 0);
  const text = box.fitted.lines.map((line) => line.map((s) => s.text).join('')).join('\n');
  return Object.entries(KEY_TEXT)
    .filter(([, re]) => re.test(text))
    .map(([key]) => key);
}

describe('the approval box lists only the keys that act', () => {
  for (const [kind, request] of Object.entries(KINDS))
    for (const sandbox of [true, false])
      it(`${kind}, ${sandbox ? 'with' : 'without'} a sandbox, at 60x20, 80x24 and 160x45`, () => {
        for (const [columns, rows] of SIZES)
          expect(listedKeys(request, sandbox, columns, rows), `${columns}x${rows}`).toEqual(
            EXPECTED[kind]![sandbox ? 'sandbox' : 'none'],
          );
      });

  it('the screen: a Destructive box offers no p, in the box or the status bar; p still says why', async () => {
    const screen = renderScreen({ store: emptyStore(), policy: policy(true), columns: 60, rows: 20 });
    try {
      void screen.approvals.decide(destructiveRequest, new AbortController().signal);
      const frame = stripAnsi(await screen.waitFor('approve?'));
      expect(pane(frame, 'approve?')).toContain('Esc stop the turn');
      expect(frame).not.toMatch(/\bp allow/);
      await screen.press('p');
      expect(stripAnsi(await screen.waitFor('no prefix allowed'))).toContain('Destructive');
    } finally {
      screen.unmount();
    }
  });

  it('the screen: a Write shell call in the sandbox offers p in the box and the status bar', async () => {
    const screen = renderScreen({ store: emptyStore(), policy: policy(true), columns: 160, rows: 45 });
    try {
      void screen.approvals.decide(bash('npm test', 'Write'), new AbortController().signal);
      const frame = stripAnsi(await screen.waitFor('approve?'));
      expect(pane(frame, 'approve?')).toContain('p allow its prefix');
      expect(frame.trimEnd().split('\n').at(-1)).toContain('p allow prefix');
    } finally {
      screen.unmount();
    }
  });
});
