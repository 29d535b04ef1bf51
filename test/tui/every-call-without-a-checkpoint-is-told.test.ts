/**
 * Every call that ran without a checkpoint is told in the transcript: the first failure in a row
 * in full, each later one in a short line before its own call, and the call after them that has
 * a checkpoint again says so. The notices are the ones the turn commits (checkpoint-notices.ts).
 */
import { describe, expect, it } from 'vitest';
import { checkpointsBackNotices, failedCheckpointNotices } from '../../src/core/session/checkpoint-notices';
import type { SessionStore } from '../../src/core/storage/session-store';
import { lineWidth, type Line } from '../../src/tui/style/styled-line';
import { LineCache, transcriptWindow } from '../../src/tui/transcript/transcript-window';
import { append, emptyStore } from './session-fixture';

const REASON =
  'the workspace could not be snapshotted: git update-index was stopped: it ran past the checkpoint time limit of 300 s';

function write(store: SessionStore, n: number, checkpoint?: string): void {
  append(store, 'tool_intent', {
    callId: `c${n}`,
    tool: 'write_file',
    input: { path: `w${n}.txt`, content: `${n}\n` },
    subject: `w${n}.txt`,
    risk: 'Write',
    reason: 'writes',
    replay: 'idempotent',
    approval: { approved: true, by: 'policy' },
    ...(checkpoint ? { checkpoint } : {}),
  });
}

function transcript(store: SessionStore, width: number): string[] {
  const head = store.registers.get<{ entryId: string }>('lane.head', 'head')!.entryId;
  const window = transcriptWindow(store.tree.pathTo(head), [], new LineCache(), width, 200, { kind: 'follow' });
  return window.lines.map((line: Line) => line.map((s) => s.text).join(''));
}

describe('checkpoints that fail three times in a row', () => {
  it('are each visible before their call at 80 columns, and the success after them clears the run', () => {
    const store = emptyStore();
    append(store, 'user', { text: 'write four files' });
    for (const n of [1, 2, 3]) {
      for (const notice of failedCheckpointNotices({ ok: false, reason: REASON, firstReport: n === 1, inARow: n }))
        append(store, 'notice', notice);
      write(store, n);
    }
    for (const notice of checkpointsBackNotices(3)) append(store, 'notice', notice);
    write(store, 4, 'a'.repeat(40));

    const lines = transcript(store, 80);
    const text = lines.join('\n');
    for (const line of lines) expect(lineWidth([{ text: line }] as Line)).toBeLessThanOrEqual(80);
    const at = (pattern: RegExp): number => lines.findIndex((line) => pattern.test(line));
    const calls = [1, 2, 3, 4].map((n) => at(new RegExp(`write_file.*w${n}\\.txt`)));
    const told = [
      at(/^! checkpoints are off: the workspace could not be snapshotted/),
      at(/^! no checkpoint for this call either \(2 calls in a row without one\)/),
      at(/^! no checkpoint for this call either \(3 calls in a row without one\)/),
      at(/checkpoints are on again: this call has one \(3 calls before it ran without/),
    ];
    for (const [i, line] of told.entries()) {
      expect(line, `notice ${i + 1} in:\n${text}`).toBeGreaterThanOrEqual(0);
      expect(line).toBeLessThan(calls[i]!);
      if (i > 0) expect(line).toBeGreaterThan(calls[i - 1]!);
    }
    expect(text.replace(/\s+/g, ' ')).toContain('until a checkpoint is taken again');
  });

  it('told on a workspace where checkpoints cannot work at all: once, not before every call', () => {
    const standing = { ok: false, reason: 'no usable git binary (git)', standing: true } as const;
    expect(failedCheckpointNotices({ ...standing, firstReport: true, inARow: 1 })).toHaveLength(1);
    expect(failedCheckpointNotices({ ...standing, firstReport: false, inARow: 2 })).toEqual([]);
  });
});
