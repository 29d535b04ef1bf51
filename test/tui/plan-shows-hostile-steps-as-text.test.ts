import { describe, expect, it } from 'vitest';
import { EMPTY_TASK_STATE, type TaskState } from '../../src/core/session/task-state';
import { planOverlayRows, planStatus } from '../../src/tui/overlays/plan-lines';
import { registerLines } from '../../src/tui/overlays/register-lines';
import { emptyStore } from './session-fixture';

const text = (line: readonly { text: string }[]): string => line.map((s) => s.text).join('');

/** A plan a hostile model (or a repository it read) wrote: escapes, line breaks, a bidi override, a huge step. */
const hostile: TaskState = {
  ...EMPTY_TASK_STATE,
  source: 'tool',
  plan: [
    { step: 'clear\x1b[2J the screen', status: 'completed' },
    { step: 'two\nlines\rand a \u202eswap', status: 'in_progress' },
    { step: '界'.repeat(200), status: 'pending' },
  ],
  current: 1,
  explanation: 'why\x07bell',
  lastAction: {
    tool: 'bash',
    subject: 'echo \x1b]52;c;AAAA\x07',
    outcome: 'ok',
    result: 'x\x1b[31mred',
    entryId: 'e_1',
  },
  rounds: 3,
};

function noControls(s: string): void {
  expect(s).not.toMatch(/[\x00-\x1f\x7f\u202e]/);
}

describe('a plan the model wrote is shown as text', () => {
  it('in the status bar step: controls visible, one line, cut to a few words', () => {
    const status = planStatus(hostile)!;
    noControls(status);
    expect(status.startsWith('step 2/3 · two')).toBe(true);
    expect(status.length).toBeLessThan(50);
    expect(planStatus({ ...hostile, current: 2 })!.length).toBeLessThan(50);
  });

  it('in the registers pane, one row per step within its width', () => {
    const lines = registerLines(emptyStore(), 40, hostile).map(text);
    for (const line of lines) noControls(line);
    expect(lines.some((l) => l.includes('▶ two'))).toBe(true);
    expect(lines.filter((l) => l.includes('界'))).toHaveLength(1);
  });

  it('in the full-size overlay, each row within its width', () => {
    const lines = planOverlayRows(hostile, 60).map(text);
    for (const line of lines) noControls(line);
    expect(lines.some((l) => l.includes('why  why'))).toBe(true);
    expect(lines.some((l) => l.startsWith('last bash echo'))).toBe(true);
  });
});
