/**
 * The picker writes a session's cost as the usage pane writes it (three decimals under a dollar),
 * with `+?` when some call had no price: its cost is then only a lower bound.
 */
import { describe, expect, it } from 'vitest';
import { pickerRow, type PickerSession } from '../../src/tui/picker/picker-rows';

function session(costUsdMicros: number, unpriced: boolean, estimated = false): PickerSession {
  return {
    id: '1-a',
    path: '/s/1-a.jsonl',
    cwd: '/w',
    createdAt: 0,
    firstPrompt: 'fix the bug',
    name: null,
    entries: 3,
    branches: 1,
    costUsdMicros,
    unpriced,
    estimated,
    problem: null,
    task: null,
  };
}

const text = (s: PickerSession): string =>
  pickerRow(s, false, 100, false, 0, '/home/u')
    .map((segment) => segment.text)
    .join('');

describe('the picker row', () => {
  it('writes the cost as the usage pane does, and +? after an unpriced one', () => {
    expect(text(session(41_000, false))).toMatch(/\$0\.041\s*$/);
    expect(text(session(0, true))).toMatch(/\$0\+\?\s*$/);
    expect(text(session(41_000, false))).not.toContain('+?');
  });

  it('marks an estimated cost (a call cut off mid-stream) with ~', () => {
    expect(text(session(41_000, false, true))).toMatch(/~\$0\.041\s*$/);
    expect(text(session(41_000, false))).not.toContain('~');
  });
});
