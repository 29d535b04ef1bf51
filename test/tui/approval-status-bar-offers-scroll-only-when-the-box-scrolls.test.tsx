/**
 * The status bar names ↑↓ scroll while a call waits only when the box has rows to scroll to. Seen
 * in tmux: a sub-agent's bash box opened at 80x24 (rows 1–9 of 22), the window grown to 120x40,
 * the box now whole with no position on its border, and the bar still said "↑↓ scroll", a key that
 * did nothing there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { createTuiApprover } from '../../src/tui/approval/approval-queue';
import { renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const bash = (command: string): ApprovalRequest => ({
  callId: 'call_b',
  tool: 'bash',
  subject: command,
  input: { command },
  risk: 'Destructive',
  reason: '`rm -r` removes a directory tree',
  agent: 'sub-agent (session 1-a)',
});

const statusBar = (frame: string): string => stripAnsi(frame).trimEnd().split('\n').at(-1)!;

describe('the status bar offers ↑↓ scroll only for a box that scrolls', () => {
  it('a box that fits whole: the bar names y and n, not scroll', async () => {
    const approvals = createTuiApprover({ armMs: 0 });
    screen = renderScreen({ store: emptyStore(), approvals, columns: 160, rows: 45 });
    void approvals.decide(bash('rm -rf build'), new AbortController().signal);
    const frame = await screen.waitFor('approve?');
    expect(stripAnsi(frame)).not.toMatch(/rows \d+–\d+ of \d+/);
    expect(statusBar(frame)).toContain('y approve');
    expect(statusBar(frame)).not.toContain('scroll');
  });

  it('a box with rows below the fold: the bar names ↑↓ scroll', async () => {
    const approvals = createTuiApprover({ armMs: 0 });
    screen = renderScreen({ store: emptyStore(), approvals, columns: 160, rows: 45 });
    const command = Array.from({ length: 60 }, (_, i) => `rm -rf ./build/stage-${i + 1}`).join('\n');
    void approvals.decide(bash(command), new AbortController().signal);
    const frame = await screen.waitFor('approve?');
    expect(stripAnsi(frame)).toMatch(/rows 1–\d+ of \d+/);
    expect(statusBar(frame)).toContain('↑↓ scroll');
  });

  it('a box that fit whole and scrolls after a resize: ↓ moves it there, and y waits for the rows it hid', async () => {
    const approvals = createTuiApprover({ armMs: 0 });
    screen = renderScreen({ store: emptyStore(), approvals, columns: 160, rows: 45 });
    const command = Array.from({ length: 12 }, (_, i) => `rm -rf ./build/stage-${i + 1}`).join('\n');
    const decision = approvals.decide(bash(command), new AbortController().signal);
    const whole = await screen.waitFor('approve?');
    expect(stripAnsi(whole)).not.toMatch(/rows \d+–\d+ of \d+/);
    screen.resize(60, 20);
    const cut = stripAnsi(await screen.waitFor(/rows 1–\d+ of \d+/));
    expect(cut).not.toContain('stage-12');
    await screen.press('y');
    await screen.waitFor('have not been on screen');
    for (let i = 0; i < 30 && !stripAnsi(screen.frame()).includes('stage-12'); i++) await screen.press('\u001b[B');
    expect(stripAnsi(screen.frame())).toContain('stage-12');
    await screen.press('y');
    expect(await decision).toMatchObject({ approved: true, by: 'user' });
  });
});
