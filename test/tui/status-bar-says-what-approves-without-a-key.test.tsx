/** The status bar says what approves calls without a key: `--yes`, the allow rules, the tools allowed for the session. */
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import { writeRequest } from './approval-fixtures';
import { renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const statusBar = (frame: string): string => stripAnsi(frame).trimEnd().split('\n').at(-1)!;

describe('the status bar', () => {
  it('shows --yes and the allow rules in force, and a tool allowed for the session once a adds it', async () => {
    const policy = new ApprovalPolicy({ rules: ['bash:git status*', 'read_file'], yes: true, interactive: true });
    screen = renderScreen({ store: emptyStore(), policy, columns: 160 });
    await screen.waitFor('--yes');
    expect(statusBar(screen.frame())).toContain('--yes · allow bash:git status*, read_file');

    const decision = screen.approvals.decide(writeRequest, new AbortController().signal);
    await screen.waitFor('approve?');
    await screen.press('a');
    await decision;
    await screen.waitFor('session allows write_file');
    expect(statusBar(screen.frame())).toContain(
      '--yes · allow bash:git status*, read_file · session allows write_file',
    );
  });

  it('says nothing of approvals when only keys approve', async () => {
    const policy = new ApprovalPolicy({ rules: [], yes: false, interactive: true });
    screen = renderScreen({ store: emptyStore(), policy, columns: 160 });
    await screen.waitFor('type a prompt');
    expect(statusBar(screen.frame())).not.toMatch(/--yes|allow/);
  });
});
