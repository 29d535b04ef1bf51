/**
 * A call tole vetted before asking (the repository's git config holds what tole cannot vouch
 * for) is shown with what was found, where approving it runs and what to do: with a sandbox the
 * key approves it to run there; without one the box says it cannot run and only closes, offering
 * no key that would lead to a refusal. Drawn by the shipped renderer at 80x24 and 120x40; what
 * the repository names (a folder, a key) reaches the screen only as text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { isReachDrop, vettingOutcome } from '../../src/core/approval/unconfined-vetting';
import { guardDrops } from '../../src/core/git-guard-drops';
import { settled } from './approval-fixtures';
import { paneOnOneLine, renderScreen, type Screen, stripAnsi } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

function vetted(
  outcome: 'confined' | 'refused' | 'warned',
  unvouched = ['gitflow.path.hooks (in vendor/x/.git/config)'],
) {
  const vetting = { unvouched, outcome };
  const request: ApprovalRequest = {
    callId: `call_${outcome}`,
    tool: 'bash',
    subject: 'cd vendor/x && git diff',
    input: { command: 'cd vendor/x && git diff' },
    risk: 'Write',
    reason: '`git diff` in a nested repository',
    vetting,
    runs: vettingOutcome(vetting),
  };
  return request;
}

/** The box's text on one line. */
const boxText = (frame: string): string => paneOnOneLine(frame, 'approve?');

const statusBar = (frame: string): string => stripAnsi(frame).trimEnd().split('\n').at(-1)!;

const SIZES = [
  [80, 24],
  [120, 40],
] as const;

function open(sandbox: boolean, columns: number, rows: number): Screen {
  const policy = new ApprovalPolicy({ rules: [], yes: false, interactive: true, sandbox });
  screen = renderScreen({ store: emptyStore(), policy, columns, rows });
  return screen;
}

describe('the approval box says what keeps a call from running unconfined', () => {
  for (const [columns, rows] of SIZES)
    it(`with no sandbox it says the call cannot run, and y only closes it (${columns}x${rows})`, async () => {
      const s = open(false, columns, rows);
      const decision = s.approvals.decide(vetted('refused'), new AbortController().signal);
      const text = boxText(await s.waitFor('approve?'));
      expect(text).toContain(
        'found: git config key gitflow.path.hooks (in vendor/x/.git/config) may name a program, and tole cannot vouch for it',
      );
      expect(text).toContain('runs: it is refused: there is no sandbox here');
      expect(text).toContain('git config --unset <key>');
      expect(text).toContain('trustedGitKeys');
      expect(text).toContain('y/n close: nothing runs');
      expect(text).toContain('Esc stop the turn');
      expect(text).not.toMatch(/approve once|e edit it|a allow|p allow/);
      // Nor does the status bar offer y as an approval.
      expect(statusBar(s.frame())).not.toMatch(/y approve|n deny/);
      await s.press('e');
      expect(await settled(decision)).toBe('pending');
      await s.press('y');
      expect(await settled(decision)).toMatchObject({ approved: false });
      expect(stripAnsi(await s.waitFor('not run: it cannot run here'))).not.toContain('approved');
    });

  for (const [columns, rows] of SIZES)
    it(`with a sandbox the key approves it to run there (${columns}x${rows})`, async () => {
      const s = open(true, columns, rows);
      const decision = s.approvals.decide(vetted('confined'), new AbortController().signal);
      const text = boxText(await s.waitFor('approve?'));
      expect(text).toContain('found: git config key gitflow.path.hooks (in vendor/x/.git/config)');
      expect(text).toContain('runs: approved, this command runs only in the sandbox');
      expect(text).toContain('y approve: it runs in the sandbox');
      expect(text).toContain('e edit it');
      expect(statusBar(s.frame())).toContain('y approve');
      await s.press('y');
      expect(await settled(decision)).toMatchObject({ approved: true, by: 'user' });
      await s.waitFor('approved: it runs in the sandbox');
    });

  it('n closes a box of a call that cannot run at once, with no message field', async () => {
    const s = open(false, 80, 24);
    const decision = s.approvals.decide(vetted('refused'), new AbortController().signal);
    await s.waitFor('approve?');
    await s.press('n');
    expect(await settled(decision)).toMatchObject({ approved: false });
  });

  it("shows a finding's folder and key as text: no escape, bidi override or zero-width character reaches the terminal", async () => {
    const hostile = 'x\u001b]0;owned\u0007\u202e\u200b\u001b[2J (in vendor/\u001b[31mred\u2066/.git/config)';
    const s = open(false, 120, 40);
    void s.approvals.decide(vetted('refused', [hostile]), new AbortController().signal);
    const frame = await s.waitFor('approve?');
    expect(frame).not.toContain('\u001b]0;owned');
    expect(frame).not.toContain('\u001b[2J');
    expect(frame).not.toContain('\u001b[31mred');
    expect(frame).not.toMatch(/[\u0007\u202e\u200b\u2066]/);
    expect(boxText(frame)).toContain('owned');
  });

  /** A command going where tole's git does not reach in nine ways, each a finding of its own. */
  const REACHING =
    'ssh -V; tmux -V; screen -v; sudo -n true; bash -lc true; zsh -c true; at -l; docker exec c true; kubectl exec p -- true';

  for (const [columns, rows] of SIZES)
    it(`with no sandbox, a warning is shown whole, every finding in sight, and y runs it (${columns}x${rows})`, async () => {
      const findings = guardDrops(REACHING);
      expect(findings.length).toBe(9);
      expect(findings.every(isReachDrop)).toBe(true);
      const s = open(false, columns, rows);
      const decision = s.approvals.decide(vetted('warned', findings), new AbortController().signal);
      const text = boxText(await s.waitFor('approve?'));
      expect(text).toContain("found: the command goes where tole's git does not reach:");
      for (const program of ['ssh', 'tmux', 'screen', 'sudo', 'at', 'docker', 'kubectl'])
        expect(text).toContain(`runs ${program}`);
      expect(text).toContain('starts bash to read startup files');
      expect(text).toContain('starts zsh to read startup files');
      expect(text).toContain('each runs commands in an environment of its own');
      expect(text).toContain("runs: approved with y, it runs unconfined: git there runs without tole's git");
      expect(text).toContain('why: `git diff` in a nested repository');
      expect(text).toContain('y approve: run it unconfined, as warned');
      // No allowance, prefix or edit: the key accepts this call as shown.
      expect(text).not.toMatch(/e edit it|a allow|p allow/);
      for (const key of ['e', 'p', 'a']) {
        await s.press(key);
        await s.waitFor('accepted with y for this command as shown');
        expect(await settled(decision)).toBe('pending');
      }
      await s.press('y');
      expect(await settled(decision)).toMatchObject({ approved: true, by: 'user' });
      expect(await settled(decision)).not.toHaveProperty('allowsPrefix');
      expect(await settled(decision)).not.toHaveProperty('edited');
    });
});
