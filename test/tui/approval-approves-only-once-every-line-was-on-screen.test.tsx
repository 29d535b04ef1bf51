/**
 * A key approves only what was on screen. A sub-agent asked for a 13-line script at 80x24 whose
 * last line was `rm -rf dirA`: the box showed lines 1–9, the why said "`rm -r` removes a directory
 * tree", and `y` ran it, line 13 (and its `!` mark) never shown. A hostile model puts a harmless
 * `rm -rf build` in sight and `rm -rf ~/…` past the fold; the why names one part. Now y (and a, p)
 * says which lines have not been on screen until ↓ or PgDn showed them, as `t` trusts a folder only
 * once every line was shown. n denies at once, whatever was seen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { createTuiApprover } from '../../src/tui/approval/approval-queue';
import { renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';
import { settled } from './approval-fixtures';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const DOWN = '\u001b[B';
const PAGE_DOWN = '\u001b[6~';

const script = [...Array.from({ length: 39 }, (_, i) => `echo step ${i + 1}`), 'rm -rf ~/.ssh'].join('\n');
const hidden: ApprovalRequest = {
  callId: 'call_hidden',
  tool: 'bash',
  subject: `rm -rf build\n${script}`,
  input: { command: `rm -rf build\n${script}` },
  risk: 'Destructive',
  reason: '`rm -r` removes a directory tree',
  agent: 'sub-agent (session 1-a)',
};

describe('a key approves only once every line of the box was on screen', () => {
  it('y refuses while the last lines were never shown, and approves once PgDn showed them', async () => {
    const approvals = createTuiApprover({ armMs: 0 });
    screen = renderScreen({ store: emptyStore(), approvals, columns: 80, rows: 24 });
    const decision = approvals.decide(hidden, new AbortController().signal);
    await screen.waitFor('approve?');
    await screen.press('y');
    expect(await settled(decision)).toBe('pending');
    expect(stripAnsi(await screen.waitFor('have not been on screen'))).toMatch(
      /rows \d+–41 of 41 have not been on screen/,
    );

    for (let i = 0; i < 10 && !stripAnsi(screen.frame()).includes('rm -rf ~/.ssh'); i++) await screen.press(PAGE_DOWN);
    expect(stripAnsi(screen.frame())).toContain('rm -rf ~/.ssh');
    // The warning is gone with the lines it named: it would say so of lines now on screen.
    expect(stripAnsi(screen.frame())).not.toContain('have not been on screen');
    await screen.press('y');
    expect(await decision).toMatchObject({ approved: true, by: 'user' });
  });

  it('what was seen stays seen: scrolled to the end and back up, y approves', async () => {
    const approvals = createTuiApprover({ armMs: 0 });
    screen = renderScreen({ store: emptyStore(), approvals, columns: 80, rows: 24 });
    const decision = approvals.decide(hidden, new AbortController().signal);
    await screen.waitFor('approve?');
    for (let i = 0; i < 60; i++) await screen.press(DOWN);
    await screen.waitFor('rm -rf ~/.ssh');
    await screen.press('\u001b[5~', '\u001b[5~', '\u001b[5~', '\u001b[5~', '\u001b[5~');
    await screen.press('y');
    expect(await decision).toMatchObject({ approved: true, by: 'user' });
  });

  it('a Write box whose lines were not all shown: y refuses too; n denies at once', async () => {
    const approvals = createTuiApprover({ armMs: 0 });
    screen = renderScreen({ store: emptyStore(), approvals, columns: 80, rows: 24 });
    const write: ApprovalRequest = { ...hidden, callId: 'call_w', risk: 'Write', reason: 'writes files' };
    const first = approvals.decide(write, new AbortController().signal);
    await screen.waitFor('approve?');
    await screen.press('y');
    expect(await settled(first)).toBe('pending');
    await screen.waitFor('have not been on screen');
    await screen.press('n', '\r');
    expect(await first).toMatchObject({ approved: false, by: 'user' });
  });

  it('a box that fits whole approves with the first y', async () => {
    const approvals = createTuiApprover({ armMs: 0 });
    screen = renderScreen({ store: emptyStore(), approvals, columns: 80, rows: 24 });
    const short: ApprovalRequest = {
      ...hidden,
      callId: 'call_s',
      subject: 'rm -rf build',
      input: { command: 'rm -rf build' },
    };
    const decision = approvals.decide(short, new AbortController().signal);
    await screen.waitFor('approve?');
    await screen.press('y');
    expect(await decision).toMatchObject({ approved: true, by: 'user' });
  });
});
