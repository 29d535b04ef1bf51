/**
 * A preToolUse hook runs before every call: a passing one (exit 0) says so in one short line,
 * what it added to the model's context on that line, and the same words again later in the turn
 * are folded away. A hook that warned or blocked is shown whole, every time.
 */
import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/core/storage/session-store';
import { lineWidth, type Line } from '../../src/tui/style/styled-line';
import { LineCache, transcriptWindow } from '../../src/tui/transcript/transcript-window';
import { append, emptyStore } from './session-fixture';

const PASSED = 'hook preToolUse `./scripts/check-the-tool-call-against-the-team-policy.sh`: exit 0';
const ADDS = 'hook preToolUse `./scripts/policy.sh` (exit 0) adds:\npolicy: reads are fine\nwrites need a ticket';
const WARNED =
  'hook preToolUse `./scripts/policy.sh` warning: exit 3: the policy server did not answer in time, so this call was not checked';

function call(store: SessionStore, n: number, notice: { text: string; level: 'info' | 'warn' }): void {
  append(store, 'notice', { level: notice.level, source: 'hook', text: notice.text });
  append(store, 'tool_intent', {
    callId: `c${n}`,
    tool: 'read_file',
    input: { path: 'a.txt' },
    subject: 'a.txt',
    risk: 'ReadOnly',
    reason: 'reads',
    replay: 'idempotent',
    approval: { approved: true, by: 'policy' },
  });
}

function transcript(store: SessionStore, width: number): string[] {
  const head = store.registers.get<{ entryId: string }>('lane.head', 'head')!.entryId;
  const window = transcriptWindow(store.tree.pathTo(head), [], new LineCache(), width, 200, { kind: 'follow' });
  return window.lines.map((line: Line) => line.map((s) => s.text).join(''));
}

describe('a passing hook notice', () => {
  it('takes one line at 60 columns, cut to the width, and is said once a turn', () => {
    const store = emptyStore();
    append(store, 'user', { text: 'read it three times' });
    for (const n of [1, 2, 3]) call(store, n, { text: PASSED, level: 'info' });
    const lines = transcript(store, 60);
    const notices = lines.filter((line) => line.includes('hook preToolUse'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.startsWith('ℹ hook preToolUse `./scripts/check')).toBe(true);
    expect(notices[0]!.endsWith('…')).toBe(true);
    expect(lines.filter((line) => line.includes('read_file'))).toHaveLength(3);
    for (const line of lines) expect(lineWidth([{ text: line }] as Line)).toBeLessThanOrEqual(60);
  });

  it('says again in the next turn, and puts what it added on its one line', () => {
    const store = emptyStore();
    append(store, 'user', { text: 'first' });
    call(store, 1, { text: ADDS, level: 'info' });
    call(store, 2, { text: ADDS, level: 'info' });
    append(store, 'user', { text: 'second' });
    call(store, 3, { text: ADDS, level: 'info' });
    const notices = transcript(store, 200).filter((line) => line.includes('hook preToolUse'));
    expect(notices).toEqual([
      'ℹ hook preToolUse `./scripts/policy.sh` (exit 0) adds: policy: reads are fine ⏎ writes need a ticket',
      'ℹ hook preToolUse `./scripts/policy.sh` (exit 0) adds: policy: reads are fine ⏎ writes need a ticket',
    ]);
  });
});

describe('a hook that warned', () => {
  it('is shown whole before every call, wrapped', () => {
    const store = emptyStore();
    append(store, 'user', { text: 'read it twice' });
    call(store, 1, { text: WARNED, level: 'warn' });
    call(store, 2, { text: WARNED, level: 'warn' });
    const lines = transcript(store, 60);
    expect(lines.filter((line) => line.startsWith('! hook preToolUse'))).toHaveLength(2);
    expect(
      lines
        .join(' ')
        .replace(/\s+/g, ' ')
        .match(/was not checked/g),
    ).toHaveLength(2);
  });
  it('is shown even when a passing notice of the same turn said the same words first', () => {
    const store = emptyStore();
    append(store, 'user', { text: 'read it twice' });
    call(store, 1, { text: WARNED, level: 'info' });
    call(store, 2, { text: WARNED, level: 'warn' });
    const lines = transcript(store, 200);
    expect(lines.filter((line) => line.startsWith('! hook preToolUse'))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('ℹ hook preToolUse'))).toHaveLength(1);
  });
});
