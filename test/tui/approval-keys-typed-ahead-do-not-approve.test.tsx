import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import { APPROVAL_ARM_MS, createTuiApprover } from '../../src/tui/approval/approval-queue';
import { renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';
import { destructiveRequest, settled } from './approval-fixtures';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

describe('approval keys typed ahead', () => {
  it('a y that arrives as the prompt appears does not approve a Destructive call, even with --yes; a y after the arming delay does', async () => {
    let nowMs = 1_000_000;
    const approvals = createTuiApprover({ nowMs: () => nowMs });
    const policy = new ApprovalPolicy({ rules: [], yes: true, interactive: true });
    screen = renderScreen({ store: emptyStore(), approvals, policy });
    const decision = approvals.decide(destructiveRequest, new AbortController().signal);
    await screen.waitFor('approve?');

    nowMs += APPROVAL_ARM_MS - 1;
    await screen.press('y');
    expect(await settled(decision)).toBe('pending');
    expect(stripAnsi(await screen.waitFor('press it again'))).toContain('press it again to approve');

    nowMs += 1;
    await screen.press('y');
    expect(await decision).toMatchObject({ approved: true, by: 'user' });
  });

  it('n ⏎ denies at once: refusing needs no delay', async () => {
    const approvals = createTuiApprover({ nowMs: () => 0 });
    screen = renderScreen({ store: emptyStore(), approvals });
    const decision = approvals.decide(destructiveRequest, new AbortController().signal);
    await screen.waitFor('approve?');
    await screen.press('n', '\r');
    expect(await decision).toMatchObject({ approved: false, by: 'user' });
  });

  it('the delay restarts for each prompt, so a key for the first cannot answer the second', async () => {
    let nowMs = 0;
    const approvals = createTuiApprover({ nowMs: () => nowMs });
    const first = approvals.decide({ ...destructiveRequest, callId: 'first' }, new AbortController().signal);
    const second = approvals.decide({ ...destructiveRequest, callId: 'second' }, new AbortController().signal);
    nowMs += APPROVAL_ARM_MS;
    expect(approvals.answer(approvals.getSnapshot()!, 'approve')).toMatchObject({ approved: true });
    await first;
    expect(approvals.armed()).toBe(false);
    expect(approvals.answer(approvals.getSnapshot()!, 'approve')).toBeNull();
    nowMs += APPROVAL_ARM_MS;
    expect(approvals.answer(approvals.getSnapshot()!, 'approve')).toMatchObject({ approved: true });
    await second;
  });
});
