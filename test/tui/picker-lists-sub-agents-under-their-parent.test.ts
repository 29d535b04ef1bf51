/**
 * The picker lists each sub-agent right under the session that started it, marked `└` with its
 * profile, however the newest-first order would have placed it; a typed filter keeps the family
 * together when it shows both.
 */
import { describe, expect, it } from 'vitest';
import { filterSessions, pickerRow, type PickerSession } from '../../src/tui/picker/picker-rows';

function session(
  id: string,
  createdAt: number,
  firstPrompt: string,
  task: PickerSession['task'] = null,
): PickerSession {
  return {
    id,
    path: `/s/${id}.jsonl`,
    cwd: '/w',
    createdAt,
    firstPrompt,
    name: null,
    entries: 3,
    branches: 1,
    costUsdMicros: 1_000,
    unpriced: false,
    estimated: false,
    problem: null,
    task,
  };
}

const SESSIONS = [
  session('1-aaaaaa', 1_000, 'review the storage layer'),
  session('2-bbbbbb', 2_000, 'fix the flaky test'),
  session('3-cccccc', 3_000, 'review jsonl.ts', { parentId: '1-aaaaaa', callId: 'call_1', agent: 'reviewer' }),
  session('4-dddddd', 4_000, 'review lock.ts', { parentId: '1-aaaaaa', callId: 'call_2', agent: null }),
];

const text = (s: PickerSession): string =>
  pickerRow(s, false, 100, false, 0, '/home/u')
    .map((segment) => segment.text)
    .join('');

describe('the picker with sub-agents', () => {
  it('puts each child under its parent, oldest child first, marked with its profile', () => {
    const listed = filterSessions(SESSIONS, '', '/w', false);
    expect(listed.map((s) => s.id)).toEqual(['2-bbbbbb', '1-aaaaaa', '3-cccccc', '4-dddddd']);
    expect(text(listed[2]!)).toContain('└ sub-agent reviewer: review jsonl.ts');
    expect(text(listed[3]!)).toContain('└ sub-agent: review lock.ts');
    expect(text(listed[1]!)).not.toContain('└');
  });

  it('a filter that shows a child and not its parent lists the child on its own', () => {
    const listed = filterSessions(SESSIONS, 'lock.ts', '/w', false);
    expect(listed.map((s) => s.id)).toEqual(['4-dddddd']);
  });
});
