/**
 * While a field of the approval box is open (a denial's message, an edited command, a prefix),
 * the status bar names that field's keys, the ones the box's foot lists under it: there `y` is
 * typed into the field and Esc goes back to the box, so `y approve` and `Esc stop` would be wrong.
 * Back at the box, the bar names its keys again. Drawn by the shipped renderer at 80x24 and 120x40.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import type { ApprovalRequest } from '../../src/core/approval/approver';
import { settled } from './approval-fixtures';
import { KEYS, paneOnOneLine, renderScreen, stripAnsi, type Screen } from './harness';
import { emptyStore } from './session-fixture';

let screen: Screen | undefined;
afterEach(() => screen?.unmount());

const request: ApprovalRequest = {
  callId: 'call_1',
  tool: 'bash',
  subject: 'npm test',
  input: { command: 'npm test' },
  risk: 'Write',
  reason: '`npm test` runs the project test script',
};

/** The status bar: the row under the prompt's. */
function statusBar(frame: string): string {
  const rows = stripAnsi(frame).split('\n');
  const prompt = rows.findIndex((row) => row.includes('❯ '));
  return (rows[prompt + 1] ?? '').replace(/\s+/g, ' ').trim();
}

/** The box's text on one line. */
const boxText = (frame: string): string => paneOnOneLine(frame, 'approve?');

/**
 * The bar names `hints` (each `key word`, the first two at any width, all at 120 columns), and
 * the box's foot lists each key with `foot`'s words.
 */
function expectHints(
  bar: string,
  box: string,
  hints: readonly string[],
  foot: readonly string[],
  columns: number,
): void {
  for (const hint of hints.slice(0, 2)) expect(bar, hint).toContain(hint);
  if (columns >= 120) for (const hint of hints) expect(bar, hint).toContain(hint);
  for (const words of foot) expect(box, words).toContain(words);
  expect(bar).not.toMatch(/\by approve|Esc stop/);
}

describe('the status bar while a field of the approval box is open', () => {
  for (const [columns, rows] of [
    [80, 24],
    [120, 40],
  ] as const)
    it(`names the field's keys, as the box's foot does (${columns}x${rows})`, async () => {
      const policy = new ApprovalPolicy({ rules: [], yes: false, interactive: true, sandbox: true });
      screen = renderScreen({ store: emptyStore(), policy, columns, rows });
      const s = screen;
      const decision = s.approvals.decide(request, new AbortController().signal);
      const boxBar = statusBar(await s.waitFor('answer the approval above'));
      expect(boxBar).toMatch(/y approve/);

      await s.press('n');
      let frame = await s.waitFor('deny, telling the model');
      expectHints(
        statusBar(frame),
        boxText(frame),
        ['⏎ deny', 'Esc back'],
        ['⏎ deny (type first to say why)', 'Esc back'],
        columns,
      );
      // y is typed into the message: the foot says ⏎ now denies with it, and nothing is approved.
      await s.press('y');
      frame = await s.waitFor('deny with this message');
      expectHints(
        statusBar(frame),
        boxText(frame),
        ['⏎ deny', 'Esc back'],
        ['⏎ deny with this message', 'Esc back'],
        columns,
      );
      expect(await settled(decision)).toBe('pending');
      await s.press(KEYS.escape);
      expect(statusBar(await s.waitFor('answer the approval above'))).toBe(boxBar);

      await s.press('e');
      frame = await s.waitFor('run instead (as edited):');
      expectHints(
        statusBar(frame),
        boxText(frame),
        ['⏎ approve as edited', 'Esc back', 'Alt-⏎ new line', '↑↓ lines'],
        ['⏎ approve as edited (checked again first)', 'Esc back', 'Alt-⏎ new line', '↑↓ lines'],
        columns,
      );
      await s.press(KEYS.escape);
      expect(statusBar(await s.waitFor('answer the approval above'))).toBe(boxBar);

      await s.press('p');
      frame = await s.waitFor('allow for this session every command starting');
      expectHints(
        statusBar(frame),
        boxText(frame),
        ['p/⏎ approve, keep prefix', 'Esc back'],
        ['p/⏎ approve and keep it', 'Esc back'],
        columns,
      );
      await s.press(KEYS.enter);
      expect(await settled(decision)).toMatchObject({ approved: true, allowsPrefix: ['npm', 'test'] });
    });
});
