/**
 * While the approval box is open, the prompt's grey text names the keys the box's foot lists and
 * no other, and each key it names does what the foot says: a box tole refused before asking (no
 * sandbox, a repository config it cannot vouch for) names no key that approves; an open field
 * (a denial's message, a prefix, an edited command) says what ⏎ and Esc do there. Every state is
 * drawn by the shipped renderer at 80x24 and 120x40.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import type { ApprovalRequest, Decision } from '../../src/core/approval/approver';
import { vettingOutcome } from '../../src/core/approval/unconfined-vetting';
import { destructiveRequest, settled, writeRequest } from './approval-fixtures';
import { KEYS, paneOnOneLine, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const bash = (command: string, more: Partial<ApprovalRequest> = {}): ApprovalRequest => ({
  callId: `call_${more.vetting?.outcome ?? 'plain'}`,
  tool: 'bash',
  subject: command,
  input: { command },
  risk: 'Write',
  reason: '`npm test` runs the project test script',
  ...more,
});

function vetted(outcome: 'confined' | 'refused'): ApprovalRequest {
  const vetting = { unvouched: ['gitflow.path.hooks (in vendor/x/.git/config)'], outcome } as const;
  return bash('cd vendor/x && git diff', { vetting, runs: vettingOutcome(vetting) });
}

/** The prompt's row: the one holding its mark, the box's rows above it left out. */
function placeholder(frame: string): string {
  const row = stripAnsi(frame)
    .split('\n')
    .find((line) => line.includes('❯ '));
  return (row ?? '').slice(row!.indexOf('❯ ') + 2).replace(/[│\s]+$/, '');
}

/** The box's text on one line. */
const boxText = (frame: string): string => paneOnOneLine(frame, 'approve?');

/** The keys a placeholder of the box's keys names: `answer the approval above: y, n, e or Esc`. */
function namedKeys(text: string): string[] {
  const list = /^answer the approval above: (.*)$/.exec(text)?.[1];
  if (!list) throw new Error(`not a list of keys: ${text}`);
  return list.split(/, | or /);
}

interface State {
  readonly request: ApprovalRequest;
  readonly sandbox: boolean;
  readonly keys: readonly string[];
}

const STATES: Record<string, State> = {
  'a plain shell call, no sandbox': { request: bash('npm test'), sandbox: false, keys: ['y', 'n', 'e', 'Esc'] },
  'a plain shell call in the sandbox': {
    request: bash('npm test'),
    sandbox: true,
    keys: ['y', 'n', 'a', 'p', 'e', 'Esc'],
  },
  'a file write': { request: writeRequest, sandbox: true, keys: ['y', 'n', 'a', 'Esc'] },
  'a Destructive call': { request: destructiveRequest, sandbox: true, keys: ['y', 'n', 'e', 'Esc'] },
  'a vetted call that runs confined': {
    request: vetted('confined'),
    sandbox: true,
    keys: ['y', 'n', 'a', 'e', 'Esc'],
  },
};

const SIZES = [
  [80, 24],
  [120, 40],
] as const;

function open(state: { request: ApprovalRequest; sandbox: boolean }, columns: number, rows: number) {
  const policy = new ApprovalPolicy({ rules: [], yes: false, interactive: true, sandbox: state.sandbox });
  screen = renderScreen({ store: emptyStore(), policy, columns, rows });
  const decision = screen.approvals.decide(state.request, new AbortController().signal);
  return { s: screen, decision };
}

describe("the prompt's grey text under the approval box", () => {
  for (const [columns, rows] of SIZES)
    for (const [name, state] of Object.entries(STATES))
      it(`names the keys the box lists, each of which acts: ${name} (${columns}x${rows})`, async () => {
        const { s, decision } = open(state, columns, rows);
        const frame = await s.waitFor('answer the approval above');
        const keys = namedKeys(placeholder(frame));
        expect(keys).toEqual(state.keys);
        const box = boxText(frame);
        for (const key of keys) expect(box, key).toMatch(new RegExp(`(^| )${key} `));
        // y approves: the box closes with the call approved.
        await s.press('y');
        expect(await settled(decision)).toMatchObject({ approved: true, by: 'user' });
      });

  for (const [columns, rows] of SIZES)
    it(`names no key that approves under a box that can only close, and y and n close it (${columns}x${rows})`, async () => {
      for (const key of ['y', 'n']) {
        const { s, decision } = open({ request: vetted('refused'), sandbox: false }, columns, rows);
        const frame = await s.waitFor('approve?');
        const text = placeholder(frame);
        expect(text).toBe('it cannot run here: y or n closes the box (nothing runs), Esc stops the turn');
        expect(text).not.toMatch(/answer|approve|\bd\b/);
        expect(boxText(frame)).toContain('y/n close: nothing runs Esc stop the turn');
        // Keys the old text named, or the box lists elsewhere, do nothing here.
        for (const other of ['e', 'a', 'p']) await s.press(other);
        expect(await settled(decision)).toBe('pending');
        await s.press(key);
        const answered = (await settled(decision)) as Decision;
        expect(answered, key).toMatchObject({ approved: false });
        s.unmount();
      }
    });

  for (const [columns, rows] of SIZES)
    it(`says what ⏎ and Esc do while a field is open: a denial, an edit, a prefix (${columns}x${rows})`, async () => {
      const { s, decision } = open(STATES['a plain shell call in the sandbox']!, columns, rows);
      await s.waitFor('answer the approval above');
      await s.press('n');
      expect(placeholder(await s.waitFor('deny, telling the model'))).toBe(
        'type why in the box above: ⏎ denies, Esc goes back',
      );
      // y here is typed into the message, not an approval.
      await s.press('y');
      expect(await settled(decision)).toBe('pending');
      await s.press(KEYS.escape);
      expect(namedKeys(placeholder(await s.waitFor('answer the approval above')))).toContain('y');
      await s.press('e');
      expect(placeholder(await s.waitFor('run instead (as edited):'))).toBe(
        'edit the command above: ⏎ approves it as edited, Esc goes back',
      );
      await s.press(KEYS.escape);
      await s.waitFor('answer the approval above');
      await s.press('p');
      expect(placeholder(await s.waitFor('allow for this session every command starting'))).toBe(
        'p or ⏎ approves and keeps the prefix shown above, Esc goes back',
      );
      await s.press(KEYS.enter);
      expect(await settled(decision)).toMatchObject({ approved: true, allowsPrefix: ['npm', 'test'] });
    });
});
